// /receipt?id=… : one payment's receipt (issue 14 point 5), for its owner or the admin, to
// print or save as PDF from the browser (the print stylesheet hides everything but the
// receipt). Signed-out visitors go to /auth; anyone else's receipt reads as not found.
import { useEffect, useState } from "react";
import type { ReceiptView } from "../api/types";
import { ApiError, GET } from "../lib/api";
import { formatMoney, ltr, sessions, shortDate } from "../lib/format";
import { localPath, t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { methodLabel } from "../lib/payment-methods";
import { currentSession, go, homeFor } from "../lib/session";
import { Spinner } from "../lib/ui";

function Receipt() {
  const [receipt, setReceipt] = useState<ReceiptView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [back, setBack] = useState("/dashboard");

  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("id") ?? "";
    void (async () => {
      try {
        const session = await currentSession();
        if (!session) return go("/auth");
        setBack(homeFor(session.profile.role));
        setReceipt(await GET("/api/receipts/{payment_id}", { path: { payment_id: id } }));
      } catch (e) {
        console.error("receipt", e);
        setProblem(e instanceof ApiError && e.status === 404 ? t("client.receipt.notFound") : t("client.receipt.loadFailed"));
      }
    })();
  }, []);

  if (problem) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{problem}</p>
        <a className="btn btn--navy" href={localPath(back)}>
          {t("common.back")}
        </a>
      </div>
    );
  }
  if (!receipt) return <Spinner label={t("client.receipt.loading")} />;
  const rows: [string, string][] = [
    [t("client.receipt.number"), receipt.receiptNumber],
    [t("client.receipt.date"), shortDate(receipt.paymentDay)],
    [t("client.receipt.billedTo"), `${receipt.clientName} (${receipt.clientEmail})`],
    [t("client.receipt.package"), receipt.package],
    [t("client.receipt.sessions"), sessions(receipt.sessions)],
    [t("client.receipt.method"), methodLabel(receipt.paymentMethod)],
  ];
  if (receipt.referenceNumber) rows.push([t("client.receipt.reference"), receipt.referenceNumber]);
  if (receipt.discount && receipt.discountCode) rows.push([t("client.receipt.discount", { code: receipt.discountCode }), `−${formatMoney(receipt.discount)}`]);
  return (
    <article className="panel receipt" aria-labelledby="receipt-title">
      <header className="receipt__head">
        <div>
          <p className="receipt__business">{receipt.business.name}</p>
          <p className="receipt__address">{receipt.business.address}</p>
          {receipt.business.taxId ? <p className="receipt__tax">{t("client.receipt.taxId", { id: ltr(receipt.business.taxId) })}</p> : null}
        </div>
        <h2 className="receipt__title" id="receipt-title">
          {t("client.receipt.title", { number: receipt.receiptNumber })}
        </h2>
      </header>
      <dl className="receipt__rows">
        {rows.map(([k, v]) => (
          <div className="receipt__row" key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        <div className="receipt__row receipt__row--total">
          <dt>{t("client.receipt.amountPaid")}</dt>
          <dd>{formatMoney(receipt.amount)}</dd>
        </div>
      </dl>
      <p className="receipt__note">{t("client.receipt.issued", { date: shortDate(receipt.issuedAt) })}</p>
      <div className="receipt__actions">
        <button type="button" className="btn btn--navy" onClick={() => window.print()}>
          {t("client.receipt.print")}
        </button>
        <a className="btn btn--outline" href={localPath(back)}>
          {t("common.back")}
        </a>
      </div>
    </article>
  );
}

export const mount = mountIsland(Receipt, ["receipt"]);
