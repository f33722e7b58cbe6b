// Sessions Management: every session, filtered by client and by day, with Cancel (confirmed
// bookings and those that need attention, after a confirm prompt), No-show and Waive (a late
// cancellation that kept its credit gets it back, once) actions, and the 'Add Phone Booking' dialog.
import { Suspense, useEffect, useRef, useState } from "react";
import { toast } from "../lib/toast";
import type { BookingView, ClientRow } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { t } from "../lib/i18n";
import { loadError } from "./guard";
import { ConfirmDialog, PhoneBookingDialog, preloadDialogs } from "./lazy";
import { DialogButton, PlusIcon } from "./parts";
import { ACTION_PATH, done as doneToast, failedTitle, prompt } from "./session-actions";
import { SessionFilters } from "./SessionFilters";
import { type SessionAction, SessionsTable } from "./SessionsTable";

type Pending = { kind: SessionAction; booking: BookingView };

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
        toast.error(t("common.error.title"), { description: loadError() });
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
      const [title, description] = doneToast(kind, booking);
      toast.success(title, { description });
      done.current = true;
      setPending(null);
      onChanged();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : t("common.error.unexpected");
      toast.error(failedTitle(kind), { description: message });
    } finally {
      setBusy(false);
    }
  }

  const filtered = clientId !== "" || date !== "";
  const list = rows ?? [];
  return (
    <section className="panel admin-panel" aria-labelledby="sessions-title">
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id="sessions-title" tabIndex={-1} ref={heading}>
            {t("admin.tabs.sessions")}
          </h2>
          <p className="admin-panel__lead">{t("admin.sessions.lead")}</p>
        </div>
        <DialogButton className="btn btn--navy btn--sm" preload={preloadDialogs} onOpen={() => setAdding(true)}>
          <PlusIcon />
          {t("admin.phone.title")}
        </DialogButton>
      </div>

      <SessionFilters clients={clients} clientId={clientId} date={date} onClient={setClientId} onDate={setDate} />

      <p className="visually-hidden" aria-live="polite">
        {loading || rows === null ? "" : t("admin.sessions.shown", { count: list.length })}
      </p>

      <SessionsTable rows={rows} loading={loading} filtered={filtered} onAction={(kind, booking) => setPending({ kind, booking })} />

      {pending ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            busy={busy}
            {...prompt(pending.kind, pending.booking)}
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
