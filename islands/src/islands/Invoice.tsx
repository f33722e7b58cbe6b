// /invoice?token=… : a sponsor's invoice (issue 23), opened from the link its billing contact
// was emailed, without an account. To print or save as PDF from the browser (the print
// stylesheet hides everything but the invoice), and Pay now (PayTabs' hosted page) while it is
// sent or overdue. PayTabs brings the payer back with `&paid=1`: the page then asks again for
// a few seconds until the payment is recorded, and thanks them.
import { useEffect, useState } from "react";
import { ApiError } from "../lib/api";
import { formatMoney, ltr, shortDate } from "../lib/format";
import { type MessageKey, t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { toast } from "../lib/toast";
import { Spinner } from "../lib/ui";
import { invoiceByToken, payInvoice } from "../sponsors/api";
import { PAID_POLL_MS, PAID_WAIT_MS, canPay, pageParams, paymentNote, shouldPoll } from "../sponsors/public";
import type { InvoiceView } from "../sponsors/types";

const STATUSES = ["draft", "sent", "paid", "overdue", "void"];
const statusText = (s: string) => (STATUSES.includes(s) ? t(`client.invoice.status.${s}` as MessageKey) : s);
const tone = (s: string) => (s === "paid" ? "success" : s === "overdue" || s === "void" ? "danger" : "warning");

/** The invoice, asked for again after a payment until it reads paid (or the wait is over). */
function useInvoice(token: string, backFromPaying: boolean) {
  const [invoice, setInvoice] = useState<InvoiceView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (!token) {
      setProblem(t("client.invoice.notFound"));
      return;
    }
    let live = true;
    let timer = 0;
    const started = Date.now();
    const read = async () => {
      try {
        const view = await invoiceByToken(token);
        if (!live) return;
        setInvoice(view);
        if (shouldPoll(backFromPaying, view.status, Date.now() - started)) timer = window.setTimeout(() => void read(), PAID_POLL_MS);
        else if (Date.now() - started >= PAID_WAIT_MS) setWaited(true);
      } catch (e) {
        if (!live) return;
        console.error("invoice", e);
        setProblem(e instanceof ApiError && e.status === 404 ? t("client.invoice.notFound") : t("client.invoice.loadFailed"));
      }
    };
    void read();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [token, backFromPaying]);
  return { invoice, problem, waited };
}

/** Left to right inside any paragraph (a tax number, a phone number, an email): on an Arabic
 *  page "987-654-321" would otherwise read "321-654-987". */

function Party({ title, lines }: { title: string; lines: [string | null | undefined, "ltr"?][] }) {
  return (
    <div className="invoice__party">
      <h3 className="invoice__party-title">{title}</h3>
      {lines
        .filter(([l]) => l)
        .map(([l, d], i) => (
          <p className={i === 0 ? "invoice__party-name" : "invoice__party-line"} key={i}>
            <bdi dir={d ?? "auto"}>{l}</bdi>
          </p>
        ))}
    </div>
  );
}

function PaymentNote({ note }: { note: ReturnType<typeof paymentNote> }) {
  if (!note) return null;
  const cls = note === "thanks" ? "client-book-status client-book-status--confirmed" : "client-book-status";
  return (
    <div className={cls} role="status">
      <p className="client-book-status__text">
        {note === "confirming" ? <span className="spinner spinner--sm" aria-hidden="true" /> : null}
        {t(note === "thanks" ? "client.invoice.thanks" : note === "confirming" ? "client.invoice.confirming" : "client.invoice.pending")}
      </p>
    </div>
  );
}

function Invoice() {
  const [{ token, paid: backFromPaying }] = useState(() => pageParams(window.location.search));
  const { invoice, problem, waited } = useInvoice(token, backFromPaying);
  const [paying, setPaying] = useState(false);

  async function pay() {
    setPaying(true);
    try {
      const { redirectUrl } = await payInvoice(token);
      window.location.assign(redirectUrl);
    } catch (e) {
      console.error("invoice pay", e);
      toast.error(t("common.error.title"), { description: e instanceof ApiError ? e.message : t("client.invoice.payFailed") });
      setPaying(false);
    }
  }

  if (problem) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{problem}</p>
      </div>
    );
  }
  if (!invoice) return <Spinner label={t("client.invoice.loading")} />;
  const { sponsor, business } = invoice;
  const rows: [string, string][] = [
    [t("client.invoice.number"), invoice.number],
    [t("client.invoice.issued"), shortDate(invoice.issuedOn)],
    [t("client.invoice.due"), shortDate(invoice.dueOn)],
  ];
  if (invoice.status === "paid" && invoice.paidAt) rows.push([t("client.invoice.paidOn"), shortDate(invoice.paidAt)]);
  return (
    <article className="panel receipt invoice" aria-labelledby="invoice-title">
      <PaymentNote note={paymentNote(backFromPaying, invoice.status, waited)} />
      <header className="receipt__head">
        <div>
          <p className="receipt__business">{business.name}</p>
          <p className="receipt__address">{business.address}</p>
          {business.taxId ? <p className="receipt__tax">{t("client.invoice.taxId", { id: ltr(business.taxId) })}</p> : null}
        </div>
        <div>
          <h2 className="receipt__title" id="invoice-title">
            {t("client.invoice.title", { number: invoice.number })}
          </h2>
          <span className={`status-badge status-badge--${tone(invoice.status)} invoice__status`}>{statusText(invoice.status)}</span>
        </div>
      </header>
      <dl className="receipt__rows">
        {rows.map(([k, v]) => (
          <div className="receipt__row" key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <div className="invoice__parties">
        <Party
          title={t("client.invoice.billTo")}
          lines={[
            [sponsor.name],
            [sponsor.contactName],
            [sponsor.contactEmail, "ltr"],
            [sponsor.contactPhone, "ltr"],
            [sponsor.address],
            [sponsor.taxId ? t("client.invoice.taxId", { id: ltr(sponsor.taxId) }) : null],
          ]}
        />
      </div>
      <div className="table-wrap" role="region" aria-labelledby="invoice-lines-title" tabIndex={0}>
        <table className="invoice__lines">
          <caption className="visually-hidden" id="invoice-lines-title">
            {t("client.invoice.lines")}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("client.invoice.description")}</th>
              <th scope="col" className="num invoice__detail">
                {t("client.invoice.quantity")}
              </th>
              <th scope="col" className="num invoice__detail">
                {t("client.invoice.unitPrice")}
              </th>
              <th scope="col" className="num">
                {t("client.invoice.amount")}
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((l, i) => (
              <tr key={i}>
                <td>
                  <bdi>{l.description}</bdi>
                  {/* On a phone the quantity and unit price go under the description. */}
                  <span className="invoice__line-detail">
                    {l.quantity} × {formatMoney(l.unitPrice)}
                  </span>
                </td>
                <td className="num invoice__detail">{l.quantity}</td>
                <td className="num invoice__detail">{formatMoney(l.unitPrice)}</td>
                <td className="num">{formatMoney(l.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="receipt__rows invoice__totals">
        <div className="receipt__row">
          <dt>{t("client.invoice.subtotal")}</dt>
          <dd>{formatMoney(invoice.subtotal)}</dd>
        </div>
        {invoice.vatRate !== null && invoice.vat ? (
          <div className="receipt__row">
            <dt>{t("client.invoice.vat", { rate: invoice.vatRate })}</dt>
            <dd>{formatMoney(invoice.vat)}</dd>
          </div>
        ) : null}
        <div className="receipt__row receipt__row--total">
          <dt>{t("client.invoice.total")}</dt>
          <dd>{formatMoney(invoice.total)}</dd>
        </div>
      </dl>
      {invoice.status === "paid" ? <p className="receipt__note invoice__paid">{t("client.invoice.paidNote")}</p> : null}
      {invoice.status === "void" ? <p className="receipt__note">{t("client.invoice.voidNote")}</p> : null}
      {canPay(invoice.status) ? <p className="receipt__note">{t("client.invoice.payNote", { date: shortDate(invoice.dueOn) })}</p> : null}
      <div className="receipt__actions">
        {canPay(invoice.status) ? (
          <button type="button" className="btn btn--gold" onClick={() => void pay()} disabled={paying} aria-busy={paying}>
            {paying ? t("client.invoice.paying") : t("client.invoice.pay")}
          </button>
        ) : null}
        <button type="button" className="btn btn--navy" onClick={() => window.print()}>
          {t("client.invoice.print")}
        </button>
      </div>
    </article>
  );
}

export const mount = mountIsland(Invoice, ["invoice"]);
