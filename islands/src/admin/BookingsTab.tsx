// Booking Management: the external scheduling page, how its bookings reach the site, the
// bookings that need attention (made without proof of who the client is, or without a credit)
// with Assign to client and Cancel, and the 10 most recent bookings.
import { Suspense, useEffect, useRef, useState } from "react";
import { toast } from "../lib/toast";
import { ApiError, GET, POST } from "../lib/api";
import { longDateTime } from "../lib/format";
import { t } from "../lib/i18n";
import type { BookingView, ClientRow, SchedulerInfo } from "../api/types";
import { loadError } from "./guard";
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
        toast.error(t("common.error.title"), { description: loadError() });
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
      toast.success(t("admin.booking.cancelled"), { description: t("admin.bookings.cancelledText", { who: bookedBy(booking) }) });
      done.current = true;
      setAction(null);
      onChanged();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : t("common.error.unexpected");
      toast.error(t("common.error.cancelBooking"), { description: message });
    } finally {
      setBusy(false);
    }
  }

  const name = scheduler?.schedulerName || t("admin.bookings.theSchedulingPage");
  return (
    <div className="admin-stack">
      <section className="panel admin-panel" aria-labelledby="scheduler-title">
        <h2 className="panel__title" id="scheduler-title">
          {t("admin.tabs.bookings")}
        </h2>
        <p className="admin-panel__lead">{t("admin.bookings.lead", { name })}</p>
        {scheduler?.schedulerUrl ? (
          <a className="btn btn--gold btn--sm" href={scheduler.schedulerUrl} target="_blank" rel="noopener noreferrer">
            {t("admin.bookings.open", { name: scheduler.schedulerName || t("admin.bookings.schedulingPage") })}
            <ExternalIcon />
            <span className="visually-hidden">{t("admin.newTab")}</span>
          </a>
        ) : null}
      </section>

      <section className="panel admin-panel" aria-labelledby="attention-title">
        <h3 className="panel__title" id="attention-title" tabIndex={-1} ref={heading}>
          {t("admin.needsAttention")}
        </h3>
        <p className="admin-panel__lead">{t("admin.bookings.attentionLead", { name })}</p>
        <NeedsAttentionTable
          rows={attention}
          onAssign={(booking) => setAction({ kind: "assign", booking })}
          onCancel={(booking) => setAction({ kind: "cancel", booking })}
        />
      </section>

      <section className="panel admin-panel" aria-labelledby="recent-title">
        <h3 className="panel__title" id="recent-title">
          {t("admin.bookings.recent")}
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
            title={t("admin.booking.cancelTitle")}
            description={t("admin.bookings.cancelText", { who: bookedBy(action.booking), when: longDateTime(action.booking.sessionDate) })}
            confirmText={t("admin.booking.cancel")}
            cancelText={t("admin.booking.keep")}
            onConfirm={cancelPending}
            onClose={() => setAction(null)}
            focusOnClose={() => (done.current ? heading.current : null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
