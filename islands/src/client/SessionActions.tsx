// Reschedule and Cancel on one of the client's upcoming confirmed sessions (issue 14 point 2).
// Reschedule opens the scheduler's own reschedule page (the credit moves with the booking).
// Cancel asks first and says what happens to the credit: at least 24 hours before the start
// it comes back, later it stays used (content/legal/cancellation-policy.md).
import { useState } from "react";
import { toast } from "../lib/toast";
import { ConfirmDialog } from "../admin/dialog";
import type { SessionView } from "../api/types";
import { ApiError, POST } from "../lib/api";
import { longDateTime } from "../lib/format";
import { webUrl } from "../lib/web";
import { t } from "../lib/i18n";

/** Whether cancelling now gives the credit back (the server decides; this says it first). */
export function cancelGivesCreditBack(session: SessionView, now: number = Date.now()): boolean {
  const until = session.freeCancellationUntil;
  return until ? now <= Date.parse(until) : false;
}

export function cancelDialogText(session: SessionView, now: number = Date.now()): string {
  return cancelGivesCreditBack(session, now) ? t("client.cancel.early") : t("client.cancel.late");
}

export function SessionActions({ session, newTabNote, onCancelled }: { session: SessionView; newTabNote: string; onCancelled: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const reschedule = session.rescheduleUrl ? webUrl(session.rescheduleUrl) : null;
  if (!session.canCancel) return null;
  const when = longDateTime(session.sessionDate);

  const cancel = async () => {
    setBusy(true);
    try {
      const done = await POST("/api/bookings/{id}/cancel", {}, { path: { id: session.id } });
      toast.success(t("client.cancel.done"), {
        description: done.creditReturned ? t("client.cancel.doneBack") : t("client.cancel.doneKept"),
      });
      setAsking(false);
      onCancelled();
    } catch (e) {
      console.error("cancel session", e);
      toast.error(t("common.error.cancelBooking"), { description: e instanceof ApiError ? e.message : t("common.error.retry") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="client-session__actions">
      {reschedule ? (
        <a className="btn btn--outline btn--sm" href={reschedule} target="_blank" rel="noopener" aria-describedby={newTabNote} aria-label={t("client.session.rescheduleLabel", { when })}>
          {t("client.session.reschedule")}
        </a>
      ) : null}
      <button type="button" className="btn btn--outline btn--sm" aria-haspopup="dialog" aria-label={t("client.session.cancelLabel", { when })} onClick={() => setAsking(true)}>
        {t("common.cancel")}
      </button>
      {asking ? (
        <ConfirmDialog
          open
          title={t("client.cancel.title")}
          description={t("client.cancel.text", { when, policy: cancelDialogText(session) })}
          confirmText={t("client.cancel.confirm")}
          cancelText={t("client.cancel.keep")}
          busy={busy}
          onConfirm={() => void cancel()}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </div>
  );
}
