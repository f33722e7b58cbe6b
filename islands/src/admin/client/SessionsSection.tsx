// The client page's sessions: a late cancellation that kept its credit offers Waive (the credit
// comes back, once, after a confirm prompt).
import { Suspense, useId, useRef, useState } from "react";
import { toast } from "sonner";
import type { BookingView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { longDateTime } from "../../lib/format";
import { AdminBadge, DialogButton } from "../parts";
import { type Column, Table } from "../Table";
import { ConfirmDialog, preloadClientDialogs } from "./lazy";

const title = (b: BookingView) => b.sessionNotes ?? "Coaching Session";

function WaiveButton({ b, onOpen }: { b: BookingView; onOpen: () => void }) {
  return (
    <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={onOpen}>
      Waive<span className="visually-hidden"> the late cancellation of {longDateTime(b.sessionDate)}</span>
    </DialogButton>
  );
}

function columns(onWaive: (b: BookingView) => void): Column<BookingView>[] {
  return [
    { header: "Date", cell: (b) => longDateTime(b.sessionDate) },
    { header: "Session", cell: title },
    {
      header: "Status",
      cell: (b) => (
        <>
          <AdminBadge status={b.status} />
          {b.cancelledBy ? <span className="admin-muted"> by {b.cancelledBy}</span> : null}
          {b.canWaive ? <span className="admin-muted"> · late, credit used</span> : null}
        </>
      ),
    },
    { header: "Actions", hiddenHeader: true, cell: (b) => (b.canWaive ? <WaiveButton b={b} onOpen={() => onWaive(b)} /> : null) },
  ];
}

/** On a phone: one short row per session, the status and Waive on the right. */
function compactColumns(onWaive: (b: BookingView) => void): Column<BookingView>[] {
  return [
    {
      header: "Session",
      cell: (b) => (
        <>
          {longDateTime(b.sessionDate)}
          <span className="admin-table__sub">
            {title(b)}
            {b.cancelledBy ? ` · cancelled by ${b.cancelledBy}` : ""}
            {b.canWaive ? " · late, credit used" : ""}
          </span>
        </>
      ),
    },
    {
      header: "Status",
      cell: (b) => (
        <>
          <AdminBadge status={b.status} />
          {b.canWaive ? (
            <div style={{ marginTop: "0.375rem" }}>
              <WaiveButton b={b} onOpen={() => onWaive(b)} />
            </div>
          ) : null}
        </>
      ),
    },
  ];
}

export function SessionsSection({ sessions, onChanged }: { sessions: BookingView[] | null; onChanged: () => void }) {
  const id = useId();
  const [waiving, setWaiving] = useState<BookingView | null>(null);
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
      <Table
        label="Sessions"
        columns={columns(setWaiving)}
        phone={{ columns: compactColumns(setWaiving), compact: true }}
        rows={sessions}
        rowKey={(b) => b.id}
        loading={<p className="admin-muted">Loading sessions…</p>}
        empty={<p className="empty__title">No sessions found matching the current filters</p>}
      />
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
