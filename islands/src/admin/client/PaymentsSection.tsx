// The client page's payments, each with its receipt and Refund, and under each payment the
// refunds of it, each its own line (here and in the client's payment history).
import { Suspense, useId, useState } from "react";
import type { ClientPaymentView, RefundRow } from "../../api/types";
import { formatMoney, shortDate } from "../../lib/format";
import { methodLabel } from "../../lib/payment-methods";
import { DialogButton, RowActions } from "../parts";
import { type Column, Table } from "../Table";
import { RefundDialog, preloadClientDialogs } from "./lazy";

const REFUND_STATUS: Record<string, string> = { pending: "Waiting for PayTabs", completed: "Refunded", failed: "Declined by PayTabs: credits restored" };

/** A line of the table: a payment, or a refund of the payment above it. */
type Line = { payment: ClientPaymentView; refund?: undefined } | { refund: RefundRow; payment?: undefined };

const DASH = <span className="admin-muted">—</span>;
const refundMethod = (r: RefundRow) => (r.method === "paytabs" ? "Refund through PayTabs" : "Refund (recorded)");
const refundStatus = (r: RefundRow) => REFUND_STATUS[r.status] ?? r.status;
const refundMoney = (r: RefundRow) => `−${formatMoney({ minor: r.amount, currency: r.currency })}`;
const refundDay = (r: RefundRow) => shortDate(r.completedAt ?? r.createdAt);

/** The receipt link of a payment, or a dash. */
function ReceiptLink({ p }: { p: ClientPaymentView }) {
  return p.receiptNumber ? <a href={`/receipt?id=${encodeURIComponent(p.id)}`}>{p.receiptNumber}</a> : DASH;
}

function RefundButton({ p, onOpen }: { p: ClientPaymentView; onOpen: () => void }) {
  return (
    <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={preloadClientDialogs} onOpen={onOpen}>
      Refund
      <span className="visually-hidden">
        {" "}
        the payment of {formatMoney(p.amount)} on {shortDate(p.paymentDate)}
        {p.receiptNumber ? ` (${p.receiptNumber})` : ""}
      </span>
    </DialogButton>
  );
}

/** Each value of a refund under its column's name (its state with the method, where it reads
 *  "Refund through PayTabs: Refunded"), nothing under Reference or Receipt, which a refund has not. */
function columns(onRefund: (p: ClientPaymentView) => void): Column<Line>[] {
  return [
    { header: "Date", className: "nowrap", cell: (l) => (l.payment ? shortDate(l.payment.paymentDate) : refundDay(l.refund)) },
    { header: "Amount", numeric: true, className: "nowrap", cell: (l) => (l.payment ? formatMoney(l.payment.amount) : refundMoney(l.refund)) },
    { header: "Sessions", numeric: true, cell: (l) => (l.payment ? l.payment.sessionsPurchased : `−${l.refund.credits}`) },
    {
      header: "Method",
      cell: (l) =>
        l.payment ? (
          methodLabel(l.payment.paymentMethod)
        ) : (
          <>
            {refundMethod(l.refund)}
            <span className="admin-table__sub">{refundStatus(l.refund)}</span>
          </>
        ),
    },
    { header: "Reference", cell: (l) => l.payment?.referenceNumber ?? DASH },
    { header: "Receipt", cell: (l) => (l.payment ? <ReceiptLink p={l.payment} /> : DASH) },
    {
      header: "Actions",
      hiddenHeader: true,
      className: (l) => (l.payment ? "admin-table__actions" : undefined),
      cell: (l) =>
        l.payment ? (
          <RowActions>
            <RefundButton p={l.payment} onOpen={() => onRefund(l.payment)} />
          </RowActions>
        ) : null,
    },
  ];
}

/** On a phone: one short row per payment (amount, then date, method and reference; receipt and
 *  Refund on the right) and per refund, instead of a card of seven labelled lines. */
function compactColumns(onRefund: (p: ClientPaymentView) => void): Column<Line>[] {
  return [
    {
      header: "Payment",
      cell: ({ payment: p, refund: r }) =>
        p ? (
          <>
            <strong className="nowrap">{formatMoney(p.amount)}</strong>
            <span className="admin-table__sub">
              {shortDate(p.paymentDate)} · {p.sessionsPurchased} {p.sessionsPurchased === 1 ? "session" : "sessions"} · {methodLabel(p.paymentMethod)}
              {p.referenceNumber ? ` · ${p.referenceNumber}` : ""}
            </span>
          </>
        ) : (
          <>
            <span className="nowrap">{refundMoney(r)}</span>
            <span className="admin-table__sub">
              {refundDay(r)} · −{r.credits} {r.credits === 1 ? "credit" : "credits"} · {refundMethod(r)}: {refundStatus(r)}
            </span>
          </>
        ),
    },
    {
      header: "Receipt",
      cell: (l) =>
        l.payment ? (
          <>
            <ReceiptLink p={l.payment} />
            <div style={{ marginTop: "0.375rem" }}>
              <RefundButton p={l.payment} onOpen={() => onRefund(l.payment)} />
            </div>
          </>
        ) : (
          DASH
        ),
    },
  ];
}

export function PaymentsSection({ payments, refunds, clientName, onRefunded }: { payments: ClientPaymentView[]; refunds: RefundRow[]; clientName: string; onRefunded: () => void }) {
  const id = useId();
  const [refunding, setRefunding] = useState<ClientPaymentView | null>(null);
  const lines: Line[] = payments.flatMap((payment): Line[] => [{ payment }, ...refunds.filter((r) => r.paymentRecordId === payment.id).map((refund) => ({ refund }))]);
  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Payments
      </h2>
      <p className="admin-panel__lead">Each refund is its own line under the payment it refunds, here and in the client&apos;s payment history.</p>
      <Table
        label="Payments"
        columns={columns(setRefunding)}
        phone={{ columns: compactColumns(setRefunding), compact: true }}
        rows={payments.length === 0 ? [] : lines}
        rowKey={(l) => (l.payment ? l.payment.id : l.refund.id)}
        rowClassName={(l) => (l.refund ? "admin-table__refund" : undefined)}
        empty={<p className="empty__title">No payments</p>}
      />
      {refunding ? (
        <Suspense fallback={null}>
          <RefundDialog payment={refunding} clientName={clientName} onClose={() => setRefunding(null)} onRefunded={onRefunded} />
        </Suspense>
      ) : null}
    </section>
  );
}
