// The client page's sessions: a late cancellation that kept its credit offers Waive (the credit
// comes back, once, after a confirm prompt).
import { Suspense, useId, useRef, useState } from "react";
import { toast } from "../../lib/toast";
import type { BookingView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { longDateTime } from "../../lib/format";
import { t, tMaybe } from "../../lib/i18n";
import { AdminBadge, DialogButton } from "../parts";
import { type Column, Table } from "../Table";
import { ConfirmDialog, preloadClientDialogs } from "./lazy";

const title = (b: BookingView) => b.sessionNotes ?? t("common.coachingSession");

/** Who cancelled, as the API names them ("client", "coach"…): in the page's language when known. */
const cancelledBy = (who: string) => tMaybe(`adminClient.cancelledBy.${who}`) ?? who;

function WaiveButton({ b, onOpen }: { b: BookingView; onOpen: () => void }) {
  return (
    <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={onOpen}>
      {t("admin.waive")}
      <span className="visually-hidden">{t("adminClient.sessions.waiveHidden", { when: longDateTime(b.sessionDate) })}</span>
    </DialogButton>
  );
}

function columns(onWaive: (b: BookingView) => void): Column<BookingView>[] {
  return [
    { header: t("admin.col.date"), cell: (b) => longDateTime(b.sessionDate) },
    { header: t("admin.col.session"), cell: title },
    {
      header: t("admin.col.status"),
      cell: (b) => (
        <>
          <AdminBadge status={b.status} />
          {b.cancelledBy ? <span className="admin-muted">{t("adminClient.sessions.by", { who: cancelledBy(b.cancelledBy) })}</span> : null}
          {b.canWaive ? <span className="admin-muted">{t("adminClient.sessions.late")}</span> : null}
        </>
      ),
    },
    { header: t("admin.col.actions"), hiddenHeader: true, cell: (b) => (b.canWaive ? <WaiveButton b={b} onOpen={() => onWaive(b)} /> : null) },
  ];
}

/** On a phone: one short row per session, the status and Waive on the right. */
function compactColumns(onWaive: (b: BookingView) => void): Column<BookingView>[] {
  return [
    {
      header: t("admin.col.session"),
      cell: (b) => (
        <>
          {longDateTime(b.sessionDate)}
          <span className="admin-table__sub">
            {title(b)}
            {b.cancelledBy ? t("adminClient.sessions.cancelledBy", { who: cancelledBy(b.cancelledBy) }) : ""}
            {b.canWaive ? t("adminClient.sessions.late") : ""}
          </span>
        </>
      ),
    },
    {
      header: t("admin.col.status"),
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
      toast.success(t("admin.waive.done"), { description: t("adminClient.sessions.waivedText") });
      setWaiving(null);
      onChanged();
    } catch (e) {
      toast.error(t("common.error.title"), { description: e instanceof ApiError ? e.message : t("common.error.retry") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`} tabIndex={-1} ref={heading}>
        {t("adminClient.sessions.title")}
      </h2>
      <Table
        label={t("adminClient.sessions.title")}
        columns={columns(setWaiving)}
        phone={{ columns: compactColumns(setWaiving), compact: true }}
        rows={sessions}
        rowKey={(b) => b.id}
        loading={<p className="admin-muted">{t("common.loadingSessions")}</p>}
        empty={<p className="empty__title">{t("admin.sessions.none")}</p>}
      />
      {waiving ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={t("admin.waive.title")}
            description={t("adminClient.sessions.waiveText", { when: longDateTime(waiving.sessionDate) })}
            confirmText={t("admin.waive.confirm")}
            cancelText={t("admin.waive.keep")}
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
