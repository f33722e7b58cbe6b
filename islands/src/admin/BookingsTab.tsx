// Booking Management: the external scheduling page, how its bookings reach the site, the
// bookings that need attention (made without proof of who the client is, or without a credit)
// with Assign to client and Cancel, and the 10 most recent bookings.
import { Suspense, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, GET, POST } from "../lib/api";
import { longDateTime } from "../lib/format";
import type { BookingView, ClientRow, SchedulerInfo } from "../api/types";
import { LOAD_ERROR } from "./guard";
import { NeedsAttentionTable, RecentBookingsTable, bookedBy } from "./BookingTables";
import { AssignDialog, ConfirmDialog } from "./lazy";
import { ExternalIcon } from "./parts";

type Action = { kind: "assign" | "cancel"; booking: BookingView };

export function BookingsTab({
  scheduler,
  clients,
  refreshKey,
  onChanged,
}: {
  scheduler: SchedulerInfo | null;
  clients: ClientRow[];
  refreshKey: number;
  onChanged: () => void;
}) {
  const [rows, setRows] = useState<BookingView[] | null>(null);
  const [attention, setAttention] = useState<BookingView[] | null>(null);
  const [action, setAction] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  // After an assign or cancel the row leaves the list: focus goes to its heading instead.
  const done = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    Promise.all([GET("/api/admin/bookings/recent"), GET("/api/admin/bookings/needs-attention")])
      .then(([recent, pending]) => {
        if (!live) return;
        setRows(recent);
        setAttention(pending);
      })
      .catch(() => {
        if (!live) return;
        setRows((r) => r ?? []);
        setAttention((a) => a ?? []);
        toast.error("Error", { description: LOAD_ERROR });
      });
    return () => {
      live = false;
    };
  }, [refreshKey]);

  async function cancelPending() {
    if (!action || action.kind !== "cancel") return;
    const { booking } = action;
    done.current = false;
    setBusy(true);
    try {
      await POST("/api/admin/bookings/{id}/cancel", {}, { path: { id: booking.id } });
      toast.success("Booking Cancelled", { description: `The session booked by ${bookedBy(booking)} is cancelled on the scheduling service. No credit was used.` });
      done.current = true;
      setAction(null);
      onChanged();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : "An unexpected error occurred";
      toast.error("Error Cancelling Booking", { description: message });
    } finally {
      setBusy(false);
    }
  }

  const name = scheduler?.schedulerName || "the scheduling page";
  return (
    <div className="admin-stack">
      <section className="panel admin-panel" aria-labelledby="scheduler-title">
        <h2 className="panel__title" id="scheduler-title">
          Booking Management
        </h2>
        <p className="admin-panel__lead">
          Clients book their sessions on {name} from the Book a Session page. Each booking made there arrives through the scheduling webhook, shows up
          below and debits one credit from the client automatically; cancelling it there gives the credit back. A booking made without that page&apos;s
          client link uses no credit and waits under Needs attention.
        </p>
        {scheduler?.schedulerUrl ? (
          <a className="btn btn--gold btn--sm" href={scheduler.schedulerUrl} target="_blank" rel="noopener noreferrer">
            Open {scheduler.schedulerName || "scheduling page"}
            <ExternalIcon />
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
      </section>

      <section className="panel admin-panel" aria-labelledby="attention-title">
        <h3 className="panel__title" id="attention-title" tabIndex={-1} ref={heading}>
          Needs attention
        </h3>
        <p className="admin-panel__lead">
          Bookings made on {name} without the client link of the Book a Session page (so nothing proves who the client is), or by a client without a
          credit. No credit was used for them: assign each to a client, which uses one of their credits, or cancel it.
        </p>
        <NeedsAttentionTable
          rows={attention}
          onAssign={(booking) => setAction({ kind: "assign", booking })}
          onCancel={(booking) => setAction({ kind: "cancel", booking })}
        />
      </section>

      <section className="panel admin-panel" aria-labelledby="recent-title">
        <h3 className="panel__title" id="recent-title">
          Recent Bookings
        </h3>
        <RecentBookingsTable rows={rows} scheduler={name} />
      </section>

      {action?.kind === "assign" ? (
        <Suspense fallback={null}>
          <AssignDialog
            open
            booking={action.booking}
            clients={clients}
            onOpenChange={(open) => !open && setAction(null)}
            onAssigned={() => {
              done.current = true;
              onChanged();
            }}
            focusOnClose={() => (done.current ? heading.current : null)}
          />
        </Suspense>
      ) : null}
      {action?.kind === "cancel" ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            busy={busy}
            title="Cancel this booking?"
            description={`The session booked by ${bookedBy(action.booking)} on ${longDateTime(action.booking.sessionDate)} will be cancelled on the scheduling service. No credit was used for it, so none moves.`}
            confirmText="Cancel Booking"
            cancelText="Keep Booking"
            onConfirm={cancelPending}
            onClose={() => setAction(null)}
            focusOnClose={() => (done.current ? heading.current : null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
