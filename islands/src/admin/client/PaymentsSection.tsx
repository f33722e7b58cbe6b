// The client page's payments, each with its receipt and Refund, and under each payment the
// refunds of it, each its own line (here and in the client's payment history).
import { Suspense, useId, useState } from "react";
import type { ClientPaymentView, RefundRow } from "../../api/types";
import { credits, formatMoney, sessions, shortDate } from "../../lib/format";
import { localPath, t, tMaybe } from "../../lib/i18n";
import { methodLabel, refundProvider } from "../../lib/payment-methods";
import { DialogButton, RowActions } from "../parts";
import { type Column, Table } from "../Table";
import { RefundDialog, preloadClientDialogs } from "./lazy";


/** A line of the table: a payment, or a refund of the payment above it. */
type Line = { payment: ClientPaymentView; refund?: undefined } | { refund: RefundRow; payment?: undefined };

const DASH = <span className="admin-muted">—</span>;
const refundMethod = (r: RefundRow) => {
  const provider = refundProvider(r.method);
  return provider ? t("adminClient.refund.via", { provider }) : t("adminClient.refund.recorded");
};
const refundStatus = (r: RefundRow) =>
  tMaybe(`adminClient.refundStatus.${r.status}`, { provider: refundProvider(r.method) ?? "" }) ?? r.status;
const refundMoney = (r: RefundRow) => `−${formatMoney({ minor: r.amount, currency: r.currency })}`;
const refundDay = (r: RefundRow) => shortDate(r.completedAt ?? r.createdAt);

/** The receipt link of a payment, or a dash. */
function ReceiptLink({ p }: { p: ClientPaymentView }) {
  return p.receiptNumber ? <a href={localPath(`/receipt?id=${encodeURIComponent(p.id)}`)}>{p.receiptNumber}</a> : DASH;
}

function RefundButton({ p, onOpen }: { p: ClientPaymentView; onOpen: () => void }) {
  return (
    <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={preloadClientDialogs} onOpen={onOpen}>
      {t("adminClient.refund.action")}
      <span className="visually-hidden">
        {t("adminClient.payments.refundHidden", { money: formatMoney(p.amount), date: shortDate(p.paymentDate) })}
        {p.receiptNumber ? ` (${p.receiptNumber})` : ""}
      </span>
    </DialogButton>
  );
}

/** Each value of a refund under its column's name (its state with the method, where it reads
 *  "Refund through PayTabs: Refunded"), nothing under Reference or Receipt, which a refund has not. */
function columns(onRefund: (p: ClientPaymentView) => void): Column<Line>[] {
  return [
    { header: t("admin.col.date"), className: "nowrap", cell: (l) => (l.payment ? shortDate(l.payment.paymentDate) : refundDay(l.refund)) },
    { header: t("adminClient.col.amount"), numeric: true, className: "nowrap", cell: (l) => (l.payment ? formatMoney(l.payment.amount) : refundMoney(l.refund)) },
    { header: t("admin.col.sessions"), numeric: true, cell: (l) => (l.payment ? l.payment.sessionsPurchased : `−${l.refund.credits}`) },
    {
      header: t("adminClient.col.method"),
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
    { header: t("adminClient.col.reference"), cell: (l) => l.payment?.referenceNumber ?? DASH },
    { header: t("adminClient.col.receipt"), cell: (l) => (l.payment ? <ReceiptLink p={l.payment} /> : DASH) },
    {
      header: t("admin.col.actions"),
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
      header: t("adminClient.col.payment"),
      cell: ({ payment: p, refund: r }) =>
        p ? (
          <>
            <strong className="nowrap">{formatMoney(p.amount)}</strong>
            <span className="admin-table__sub">
              {shortDate(p.paymentDate)} · {sessions(p.sessionsPurchased)} · {methodLabel(p.paymentMethod)}
              {p.referenceNumber ? ` · ${p.referenceNumber}` : ""}
            </span>
          </>
        ) : (
          <>
            <span className="nowrap">{refundMoney(r)}</span>
            <span className="admin-table__sub">
              {refundDay(r)} · −{credits(r.credits)} · {refundMethod(r)}: {refundStatus(r)}
            </span>
          </>
        ),
    },
    {
      header: t("adminClient.col.receipt"),
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
        {t("adminClient.payments.title")}
      </h2>
      <p className="admin-panel__lead">{t("adminClient.payments.lead")}</p>
      <Table
        label={t("adminClient.payments.title")}
        columns={columns(setRefunding)}
        phone={{ columns: compactColumns(setRefunding), compact: true }}
        rows={payments.length === 0 ? [] : lines}
        rowKey={(l) => (l.payment ? l.payment.id : l.refund.id)}
        rowClassName={(l) => (l.refund ? "admin-table__refund" : undefined)}
        empty={<p className="empty__title">{t("adminClient.payments.none")}</p>}
      />
      {refunding ? (
        <Suspense fallback={null}>
          <RefundDialog payment={refunding} clientName={clientName} onClose={() => setRefunding(null)} onRefunded={onRefunded} />
        </Suspense>
      ) : null}
    </section>
  );
}
