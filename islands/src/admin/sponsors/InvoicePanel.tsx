// An engagement's invoice as the admin handles it: number, status, dates and total; Send invoice
// (again), Mark paid (a bank transfer), Void; Open invoice (its public page, in a new tab) and
// Copy pay link.
import { useState } from "react";
import { formatMoney, shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { sendInvoice, voidInvoice } from "../../sponsors/api";
import type { InvoiceView } from "../../sponsors/types";
import { ConfirmDialog } from "../dialog";
import { DialogButton, ExternalIcon } from "../parts";
import { MarkPaidDialog } from "./ActionDialogs";
import { InvoiceBadge } from "./SponsorPage";
import { copyText, errorText, invoiceActions } from "./views";

function paidLine(invoice: InvoiceView): string | null {
  if (invoice.status !== "paid" || !invoice.paidAt) return null;
  const date = shortDate(invoice.paidAt);
  if (invoice.paidVia === "transfer") {
    return invoice.bankReference
      ? t("admin.sponsors.invoice.paidTransferRef", { date, reference: invoice.bankReference })
      : t("admin.sponsors.invoice.paidTransfer", { date });
  }
  return t("admin.sponsors.invoice.paidOnline", { date });
}

export function InvoicePanel({ invoice, onChanged }: { invoice: InvoiceView; onChanged: (i: InvoiceView) => void }) {
  const [busy, setBusy] = useState<"send" | "void" | null>(null);
  const [dialog, setDialog] = useState<"paid" | "void" | null>(null);
  const can = invoiceActions(invoice);

  async function send() {
    setBusy("send");
    try {
      const sent = await sendInvoice(invoice.id);
      toast.success(t("admin.sponsors.invoice.sentDone", { number: sent.number, email: sent.sponsor.contactEmail }));
      onChanged(sent);
    } catch (err) {
      toast.error(t("common.error.title"), { description: errorText(err, t("admin.sponsors.invoice.actionFailed")) });
    } finally {
      setBusy(null);
    }
  }

  async function voidIt() {
    setBusy("void");
    try {
      const voided = await voidInvoice(invoice.id);
      toast.success(t("admin.sponsors.invoice.voidDone", { number: voided.number }));
      setDialog(null);
      onChanged(voided);
    } catch (err) {
      toast.error(t("common.error.title"), { description: errorText(err, t("admin.sponsors.invoice.actionFailed")) });
    } finally {
      setBusy(null);
    }
  }

  async function copy() {
    if (await copyText(invoice.payUrl)) toast.success(t("admin.sponsors.invoice.linkCopied"));
    else toast.error(t("common.error.title"), { description: t("admin.sponsors.copyFailed") });
  }

  const rows: [string, string][] = [
    [t("admin.sponsors.invoice.issued"), shortDate(invoice.issuedOn)],
    [t("admin.sponsors.invoice.due"), shortDate(invoice.dueOn)],
    [t("admin.sponsors.invoice.total"), formatMoney(invoice.total)],
  ];
  const paid = paidLine(invoice);
  return (
    <section className="admin-stack" aria-labelledby="engagement-invoice-title">
      <h3 className="admin-client__subtitle" id="engagement-invoice-title">
        {t("admin.sponsors.invoice.title", { number: invoice.number })} <InvoiceBadge status={invoice.status} />
      </h3>
      <dl className="transfer-details">
        {rows.map(([k, v]) => (
          <div className="transfer-details__row" key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {paid ? <p className="sponsors-state">{paid}</p> : null}
      <div className="admin-form__actions">
        {can.send || can.resend ? (
          <button type="button" className="btn btn--navy btn--sm" onClick={() => void send()} disabled={busy !== null} aria-busy={busy === "send"}>
            {busy === "send" ? t("admin.sponsors.invoice.sending") : can.send ? t("admin.sponsors.invoice.send") : t("admin.sponsors.invoice.resend")}
          </button>
        ) : null}
        {can.markPaid ? (
          <DialogButton className="btn btn--outline btn--sm" preload={() => undefined} onOpen={() => setDialog("paid")}>
            {t("admin.sponsors.invoice.markPaid")}
          </DialogButton>
        ) : null}
        <a className="btn btn--outline btn--sm" href={invoice.payUrl} target="_blank" rel="noopener">
          {t("admin.sponsors.invoice.open")}
          <span className="visually-hidden">{t("admin.newTab")}</span>
          <ExternalIcon />
        </a>
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void copy()}>
          {t("admin.sponsors.invoice.copy")}
        </button>
        {can.void ? (
          <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={() => undefined} onOpen={() => setDialog("void")}>
            {t("admin.sponsors.invoice.void")}
          </DialogButton>
        ) : null}
      </div>
      {dialog === "paid" ? (
        <MarkPaidDialog
          invoice={invoice}
          onClose={() => setDialog(null)}
          onDone={(i) => {
            setDialog(null);
            onChanged(i);
          }}
        />
      ) : null}
      {dialog === "void" ? (
        <ConfirmDialog
          open
          title={t("admin.sponsors.invoice.voidTitle", { number: invoice.number })}
          description={t("admin.sponsors.invoice.voidText")}
          confirmText={t("admin.sponsors.invoice.voidConfirm")}
          busy={busy === "void"}
          onConfirm={() => void voidIt()}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}
