// Sessions Management: every session, filtered by client and by day, with Cancel (confirmed
// bookings and those that need attention, after a confirm prompt), No-show and Waive (a late
// cancellation that kept its credit gets it back, once) actions, and the 'Add Phone Booking' dialog.
import { Suspense, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, GET, POST } from "../lib/api";
import { longDateTime } from "../lib/format";
import type { BookingView, ClientRow } from "../api/types";
import { LOAD_ERROR } from "./guard";
import { canCancel, canMarkNoShow, label } from "./helpers";
import { ConfirmDialog, PhoneBookingDialog, preloadDialogs } from "./lazy";
import { AdminBadge, DialogButton, PlusIcon, RowActions } from "./parts";

type Pending = { kind: "cancel" | "no-show" | "waive"; booking: BookingView };

const ACTION_PATH = {
  cancel: "/api/admin/bookings/{id}/cancel",
  "no-show": "/api/admin/bookings/{id}/no-show",
  waive: "/api/admin/bookings/{id}/waive",
} as const satisfies Record<Pending["kind"], string>;

export function SessionsTab({ clients, refreshKey, onChanged }: { clients: ClientRow[]; refreshKey: number; onChanged: () => void }) {
  const [clientId, setClientId] = useState("");
  const [date, setDate] = useState("");
  const [rows, setRows] = useState<BookingView[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  // After a cancel or no-show the row loses its buttons: focus goes to the heading instead.
  const done = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    setLoading(true);
    GET("/api/admin/sessions", { query: { client_id: clientId, date } })
      .then((r) => live && setRows(r))
      .catch(() => {
        if (!live) return;
        setRows((r) => r ?? []);
        toast.error("Error", { description: LOAD_ERROR });
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [clientId, date, refreshKey]);

  async function confirmAction() {
    if (!pending) return;
    const { kind, booking } = pending;
    done.current = false;
    setBusy(true);
    try {
      await POST(ACTION_PATH[kind], {}, { path: { id: booking.id } });
      if (kind === "waive") {
        toast.success("Late cancellation waived", { description: `The session credit is back in the account of ${booking.clientName ?? "the client"}.` });
      } else if (kind === "cancel") {
        toast.success("Booking Cancelled", {
          description:
            booking.status === "pending"
              ? `The session booked by ${booking.clientName ?? "the invitee"} is cancelled. No credit was used for it.`
              : `The session of ${booking.clientName ?? "the client"} is cancelled and the credit returned.`,
        });
      } else {
        toast.success("Marked as No-show", { description: `The session of ${booking.clientName ?? "the client"} is marked as a no-show; the credit stays used.` });
      }
      done.current = true;
      setPending(null);
      onChanged();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : "An unexpected error occurred";
      toast.error(kind === "cancel" ? "Error Cancelling Booking" : kind === "waive" ? "Error Waiving Cancellation" : "Error Updating Booking", { description: message });
    } finally {
      setBusy(false);
    }
  }

  const filtered = clientId !== "" || date !== "";
  const list = rows ?? [];
  const who = (b: BookingView) => b.clientName || b.clientEmail || "Unknown client";
  return (
    <section className="panel admin-panel" aria-labelledby="sessions-title">
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id="sessions-title" tabIndex={-1} ref={heading}>
            Sessions Management
          </h2>
          <p className="admin-panel__lead">Every session, booked on the scheduler or by phone.</p>
        </div>
        <DialogButton className="btn btn--navy btn--sm" preload={preloadDialogs} onOpen={() => setAdding(true)}>
          <PlusIcon />
          Add Phone Booking
        </DialogButton>
      </div>

      <div className="admin-toolbar" role="group" aria-label="Filter sessions">
        <div className="field admin-toolbar__grow">
          <label className="field__label" htmlFor="filter-client">
            Client
          </label>
          <select className="input" id="filter-client" value={clientId} onChange={(e) => setClientId(e.target.value)}>
            <option value="">All clients</option>
            {clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="filter-date">
            Date
          </label>
          <input className="input" id="filter-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <button
          type="button"
          className="btn btn--outline btn--sm admin-toolbar__button"
          disabled={!filtered}
          onClick={() => {
            setClientId("");
            setDate("");
          }}
        >
          Clear Filters
        </button>
      </div>

      <p className="visually-hidden" aria-live="polite">
        {loading || rows === null ? "" : `${list.length} ${list.length === 1 ? "session" : "sessions"} shown`}
      </p>

      {rows !== null && list.length === 0 ? (
        <div className="empty">
          <p className="empty__title">No sessions found matching the current filters</p>
          {filtered ? <p>Clear the filters to see every session.</p> : <p>Sessions booked on the scheduler or by phone appear here.</p>}
        </div>
      ) : (
        <div className="table-wrap" aria-busy={loading} tabIndex={0} role="region" aria-label="Sessions table">
          <table className="data-table admin-table">
            <caption className="visually-hidden">Sessions</caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Date and time</th>
                <th scope="col">Status</th>
                <th scope="col">Source</th>
                <th scope="col">Details</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((b) => (
                <tr key={b.id}>
                  <th scope="row" className="admin-table__name">
                    {who(b)}
                    {b.clientName && b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
                  </th>
                  <td>{longDateTime(b.sessionDate)}</td>
                  <td>
                    <div>
                      <AdminBadge status={b.status} />
                      {b.canWaive ? <span className="admin-table__sub">Late: credit used</span> : null}
                    </div>
                  </td>
                  <td>{label(b.source)}</td>
                  <td>
                    <div className="admin-table__details">
                      {b.sessionNotes ? <span className="admin-table__notes">{b.sessionNotes}</span> : null}
                      {b.googleMeetLink ? (
                        <a href={b.googleMeetLink} target="_blank" rel="noopener noreferrer">
                          Meet link<span className="visually-hidden"> for {who(b)} (opens in a new tab)</span>
                        </a>
                      ) : null}
                      {!b.sessionNotes && !b.googleMeetLink ? <span className="admin-muted">—</span> : null}
                    </div>
                  </td>
                  <td className="admin-table__actions">
                    <RowActions>
                      {canCancel(b.status) ? (
                        <button type="button" className="btn btn--sm admin-btn--danger-outline" onClick={() => setPending({ kind: "cancel", booking: b })}>
                          Cancel<span className="visually-hidden"> the session of {who(b)} on {longDateTime(b.sessionDate)}</span>
                        </button>
                      ) : null}
                      {b.canWaive ? (
                        <button type="button" className="btn btn--sm btn--outline" aria-haspopup="dialog" onClick={() => setPending({ kind: "waive", booking: b })}>
                          Waive<span className="visually-hidden"> the late cancellation of {who(b)} on {longDateTime(b.sessionDate)}</span>
                        </button>
                      ) : null}
                      {canMarkNoShow(b) ? (
                        <button type="button" className="btn btn--sm btn--outline" onClick={() => setPending({ kind: "no-show", booking: b })}>
                          No-show<span className="visually-hidden"> for {who(b)} on {longDateTime(b.sessionDate)}</span>
                        </button>
                      ) : null}
                    </RowActions>
                  </td>
                </tr>
              ))}
              {rows === null ? (
                <tr>
                  <td colSpan={6} className="admin-table__loading">
                    Loading sessions…
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}

      {pending ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            busy={busy}
            title={pending.kind === "cancel" ? "Cancel this booking?" : pending.kind === "waive" ? "Waive this late cancellation?" : "Mark as no-show?"}
            description={
              pending.kind === "waive"
                ? `${who(pending.booking)} cancelled the session on ${longDateTime(pending.booking.sessionDate)} less than 24 hours before the start, so its credit stayed used. Waiving gives the credit back, once.`
                : pending.kind === "cancel"
                ? pending.booking.status === "pending"
                  ? `The session booked by ${who(pending.booking)} on ${longDateTime(pending.booking.sessionDate)} will be cancelled. No credit was used for it, so none moves.`
                  : `The session of ${who(pending.booking)} on ${longDateTime(pending.booking.sessionDate)} will be cancelled and the credit returned to the client.`
                : `The session of ${who(pending.booking)} on ${longDateTime(pending.booking.sessionDate)} will be marked as a no-show. The credit stays used.`
            }
            confirmText={pending.kind === "cancel" ? "Cancel Booking" : pending.kind === "waive" ? "Give the credit back" : "Mark No-show"}
            cancelText={pending.kind === "cancel" ? "Keep Booking" : pending.kind === "waive" ? "Keep it used" : "Go back"}
            onConfirm={confirmAction}
            onClose={() => setPending(null)}
            focusOnClose={() => (done.current ? heading.current : null)}
          />
        </Suspense>
      ) : null}
      {adding ? (
        <Suspense fallback={null}>
          <PhoneBookingDialog open onOpenChange={setAdding} clients={clients} onCreated={onChanged} />
        </Suspense>
      ) : null}
    </section>
  );
}
