// The client page's payments (each with its receipt and Refund) and sessions (a late
// cancellation that kept its credit offers Waive: the credit comes back, once).
import { Suspense, useId, useRef, useState } from "react";
import { toast } from "sonner";
import type { BookingView, ClientPaymentView, RefundRow } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { formatMoney, longDateTime, shortDate } from "../../lib/format";
import { AdminBadge, DialogButton, RowActions } from "../parts";
import { COMPACT_CELL, useNarrow } from "../../lib/narrow";
import { CompactTable } from "../CompactTable";
import { methodLabel } from "../../lib/payment-methods";
import { ConfirmDialog, RefundDialog, preloadClientDialogs } from "./lazy";

const REFUND_STATUS: Record<string, string> = { pending: "Waiting for PayTabs", completed: "Refunded", failed: "Declined by PayTabs: credits restored" };

/** A refund's own line, under the payment it refunds: each value under its column's name (its
 *  state with the method, where it reads "Refund through PayTabs: Refunded"), nothing under
 *  Reference or Receipt, which a refund has not. */
function RefundLine({ r }: { r: RefundRow }) {
  return (
    <tr className="admin-table__refund">
      <td className="nowrap">{shortDate(r.completedAt ?? r.createdAt)}</td>
      <td className="num nowrap">−{formatMoney({ minor: r.amount, currency: r.currency })}</td>
      <td className="num">−{r.credits}</td>
      <td>
        {r.method === "paytabs" ? "Refund through PayTabs" : "Refund (recorded)"}
        <span className="admin-table__sub">{REFUND_STATUS[r.status] ?? r.status}</span>
      </td>
      <td>
        <span className="admin-muted">—</span>
      </td>
      <td>
        <span className="admin-muted">—</span>
      </td>
      <td />
    </tr>
  );
}

const RIGHT = { ...COMPACT_CELL, textAlign: "right" } as const;

/** The receipt link of a payment, or a dash. */
function ReceiptLink({ p }: { p: ClientPaymentView }) {
  return p.receiptNumber ? <a href={`/receipt?id=${encodeURIComponent(p.id)}`}>{p.receiptNumber}</a> : <span className="admin-muted">—</span>;
}

/** On a phone: one short row per payment (amount, then date, method and reference; receipt and
 *  Refund on the right) and per refund, instead of a card of seven labelled lines. */
function CompactPayments({ payments, refunds, onRefund }: { payments: ClientPaymentView[]; refunds: RefundRow[]; onRefund: (p: ClientPaymentView) => void }) {
  return (
    <CompactTable label="Payments" columns={[{ name: "Payment" }, { name: "Receipt" }]}>
      {payments.map((p) => [
        <tr key={p.id}>
          <td style={COMPACT_CELL}>
            <strong className="nowrap">{formatMoney(p.amount)}</strong>
            <span className="admin-table__sub">
              {shortDate(p.paymentDate)} · {p.sessionsPurchased} {p.sessionsPurchased === 1 ? "session" : "sessions"} · {methodLabel(p.paymentMethod)}
              {p.referenceNumber ? ` · ${p.referenceNumber}` : ""}
            </span>
          </td>
          <td style={RIGHT}>
            <ReceiptLink p={p} />
            <div style={{ marginTop: "0.375rem" }}>
              <RefundButton p={p} onOpen={() => onRefund(p)} />
            </div>
          </td>
        </tr>,
        ...refunds
          .filter((r) => r.paymentRecordId === p.id)
          .map((r) => (
            <tr key={r.id} className="admin-table__refund">
              <td style={COMPACT_CELL}>
                <span className="nowrap">−{formatMoney({ minor: r.amount, currency: r.currency })}</span>
                <span className="admin-table__sub">
                  {shortDate(r.completedAt ?? r.createdAt)} · −{r.credits} {r.credits === 1 ? "credit" : "credits"} · {r.method === "paytabs" ? "Refund through PayTabs" : "Refund (recorded)"}:{" "}
                  {REFUND_STATUS[r.status] ?? r.status}
                </span>
              </td>
              <td style={RIGHT}>
                <span className="admin-muted">—</span>
              </td>
            </tr>
          )),
      ])}
    </CompactTable>
  );
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

export function PaymentsSection({ payments, refunds, clientName, onRefunded }: { payments: ClientPaymentView[]; refunds: RefundRow[]; clientName: string; onRefunded: () => void }) {
  const id = useId();
  const [refunding, setRefunding] = useState<ClientPaymentView | null>(null);
  const narrow = useNarrow();
  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Payments
      </h2>
      <p className="admin-panel__lead">Each refund is its own line under the payment it refunds, here and in the client&apos;s payment history.</p>
      {payments.length === 0 ? (
        <p className="empty__title">No payments</p>
      ) : narrow ? (
        <CompactPayments payments={payments} refunds={refunds} onRefund={setRefunding} />
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Payments">
          <table className="data-table admin-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Sessions
                </th>
                <th scope="col">Method</th>
                <th scope="col">Reference</th>
                <th scope="col">Receipt</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => [
                <tr key={p.id}>
                  <td className="nowrap">{shortDate(p.paymentDate)}</td>
                  <td className="num nowrap">{formatMoney(p.amount)}</td>
                  <td className="num">{p.sessionsPurchased}</td>
                  <td>{methodLabel(p.paymentMethod)}</td>
                  <td>{p.referenceNumber ?? <span className="admin-muted">—</span>}</td>
                  <td>
                    <ReceiptLink p={p} />
                  </td>
                  <td className="admin-table__actions">
                    <RowActions>
                      <RefundButton p={p} onOpen={() => setRefunding(p)} />
                    </RowActions>
                  </td>
                </tr>,
                ...refunds.filter((r) => r.paymentRecordId === p.id).map((r) => <RefundLine key={r.id} r={r} />),
              ])}
            </tbody>
          </table>
        </div>
      )}
      {refunding ? (
        <Suspense fallback={null}>
          <RefundDialog payment={refunding} clientName={clientName} onClose={() => setRefunding(null)} onRefunded={onRefunded} />
        </Suspense>
      ) : null}
    </section>
  );
}

export function SessionsSection({ sessions, onChanged }: { sessions: BookingView[] | null; onChanged: () => void }) {
  const id = useId();
  const [waiving, setWaiving] = useState<BookingView | null>(null);
  const narrow = useNarrow();
  const [busy, setBusy] = useState(false);
  // After a waive the row loses its button: focus goes to the heading instead.
  const done = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const waive = async (b: BookingView) => {
    setBusy(true);
    done.current = false;
    try {
      await POST("/api/admin/bookings/{id}/waive", {}, { path: { id: b.id } });
      done.current = true;
      toast.success("Late cancellation waived", { description: "The session credit is back in the client's account." });
      setWaiving(null);
      onChanged();
    } catch (e) {
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Please try again." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`} tabIndex={-1} ref={heading}>
        Sessions
      </h2>
      {sessions === null ? (
        <p className="admin-muted">Loading sessions…</p>
      ) : sessions.length === 0 ? (
        <p className="empty__title">No sessions found matching the current filters</p>
      ) : narrow ? (
        <CompactTable label="Sessions" columns={[{ name: "Session" }, { name: "Status" }]}>
          {sessions.map((b) => (
            <tr key={b.id}>
              <td style={COMPACT_CELL}>
                {longDateTime(b.sessionDate)}
                <span className="admin-table__sub">
                  {b.sessionNotes ?? "Coaching Session"}
                  {b.cancelledBy ? ` · cancelled by ${b.cancelledBy}` : ""}
                  {b.canWaive ? " · late, credit used" : ""}
                </span>
              </td>
              <td style={RIGHT}>
                <AdminBadge status={b.status} />
                {b.canWaive ? (
                  <div style={{ marginTop: "0.375rem" }}>
                    <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={() => setWaiving(b)}>
                      Waive<span className="visually-hidden"> the late cancellation of {longDateTime(b.sessionDate)}</span>
                    </DialogButton>
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </CompactTable>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Sessions">
          <table className="data-table admin-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Session</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((b) => (
                <tr key={b.id}>
                  <td>{longDateTime(b.sessionDate)}</td>
                  <td>{b.sessionNotes ?? "Coaching Session"}</td>
                  <td>
                    <AdminBadge status={b.status} />
                    {b.cancelledBy ? <span className="admin-muted"> by {b.cancelledBy}</span> : null}
                    {b.canWaive ? <span className="admin-muted"> · late, credit used</span> : null}
                  </td>
                  <td>
                    {b.canWaive ? (
                      <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={() => setWaiving(b)}>
                        Waive<span className="visually-hidden"> the late cancellation of {longDateTime(b.sessionDate)}</span>
                      </DialogButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {waiving ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title="Waive this late cancellation?"
            description={`The session on ${longDateTime(waiving.sessionDate)} was cancelled less than 24 hours before the start, so its credit stayed used. Waiving gives the credit back, once.`}
            confirmText="Give the credit back"
            cancelText="Keep it used"
            busy={busy}
            onConfirm={() => void waive(waiving)}
            onClose={() => setWaiving(null)}
            focusOnClose={() => (done.current ? heading.current : null)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
