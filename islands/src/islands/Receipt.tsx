// /receipt?id=… : one payment's receipt (issue 14 point 5), for its owner or the admin, to
// print or save as PDF from the browser (the print stylesheet hides everything but the
// receipt). Signed-out visitors go to /auth; anyone else's receipt reads as not found.
import { useEffect, useState } from "react";
import type { ReceiptView } from "../api/types";
import { ApiError, GET } from "../lib/api";
import { formatMoney, sessions, shortDate } from "../lib/format";
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
        setProblem(e instanceof ApiError && e.status === 404 ? "Receipt not found. It may belong to another account." : "Failed to load the receipt. Please try again.");
      }
    })();
  }, []);

  if (problem) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{problem}</p>
        <a className="btn btn--navy" href={back}>
          Back
        </a>
      </div>
    );
  }
  if (!receipt) return <Spinner label="Loading the receipt…" />;
  const rows: [string, string][] = [
    ["Receipt number", receipt.receiptNumber],
    ["Date", shortDate(receipt.paymentDay)],
    ["Billed to", `${receipt.clientName} (${receipt.clientEmail})`],
    ["Package", receipt.package],
    ["Sessions", sessions(receipt.sessions)],
    ["Payment method", methodLabel(receipt.paymentMethod)],
  ];
  if (receipt.referenceNumber) rows.push(["Reference", receipt.referenceNumber]);
  return (
    <article className="panel receipt" aria-labelledby="receipt-title">
      <header className="receipt__head">
        <div>
          <p className="receipt__business">{receipt.business.name}</p>
          <p className="receipt__address">{receipt.business.address}</p>
          {receipt.business.taxId ? <p className="receipt__tax">Tax registration number: {receipt.business.taxId}</p> : null}
        </div>
        <h2 className="receipt__title" id="receipt-title">
          Receipt {receipt.receiptNumber}
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
          <dt>Amount paid</dt>
          <dd>{formatMoney(receipt.amount)}</dd>
        </div>
      </dl>
      <p className="receipt__note">Issued {shortDate(receipt.issuedAt)}. Thank you for your payment.</p>
      <div className="receipt__actions">
        <button type="button" className="btn btn--navy" onClick={() => window.print()}>
          Print or save as PDF
        </button>
        <a className="btn btn--outline" href={back}>
          Back
        </a>
      </div>
    </article>
  );
}

export const mount = mountIsland(Receipt);
