// The sessions table of Sessions Management: client, date, status, source and details of each
// session, with its Cancel, Waive and No-show buttons.
import type { BookingView } from "../api/types";
import { longDateTime } from "../lib/format";
import { t } from "../lib/i18n";
import { canCancel, canMarkNoShow, label } from "./helpers";
import { AdminBadge, RowActions } from "./parts";
import { type Column, Table } from "./Table";

export type SessionAction = "cancel" | "no-show" | "waive";

/** Who a session is for, as the table and its prompts name them. */
export const who = (b: BookingView) => b.clientName || b.clientEmail || t("admin.unknownClient");

function Details({ b }: { b: BookingView }) {
  return (
    <div className="admin-table__details">
      {b.sessionNotes ? <span className="admin-table__notes">{b.sessionNotes}</span> : null}
      {b.googleMeetLink ? (
        <a href={b.googleMeetLink} target="_blank" rel="noopener noreferrer">
          {t("admin.sessions.meetLink")}
          <span className="visually-hidden">{t("admin.sessions.meetLinkHidden", { who: who(b) })}</span>
        </a>
      ) : null}
      {!b.sessionNotes && !b.googleMeetLink ? <span className="admin-muted">—</span> : null}
    </div>
  );
}

function Actions({ b, onAction }: { b: BookingView; onAction: (kind: SessionAction, b: BookingView) => void }) {
  return (
    <RowActions>
      {canCancel(b.status) ? (
        <button type="button" className="btn btn--sm admin-btn--danger-outline" onClick={() => onAction("cancel", b)}>
          {t("common.cancel")}
          <span className="visually-hidden">{t("admin.sessions.cancelHidden", { who: who(b), when: longDateTime(b.sessionDate) })}</span>
        </button>
      ) : null}
      {b.canWaive ? (
        <button type="button" className="btn btn--sm btn--outline" aria-haspopup="dialog" onClick={() => onAction("waive", b)}>
          {t("admin.waive")}
          <span className="visually-hidden">{t("admin.sessions.waiveHidden", { who: who(b), when: longDateTime(b.sessionDate) })}</span>
        </button>
      ) : null}
      {canMarkNoShow(b) ? (
        <button type="button" className="btn btn--sm btn--outline" onClick={() => onAction("no-show", b)}>
          {t("admin.label.no_show")}
          <span className="visually-hidden">{t("admin.sessions.noShowHidden", { who: who(b), when: longDateTime(b.sessionDate) })}</span>
        </button>
      ) : null}
    </RowActions>
  );
}

export function SessionsTable(props: {
  rows: BookingView[] | null;
  loading: boolean;
  filtered: boolean;
  onAction: (kind: SessionAction, b: BookingView) => void;
}) {
  const columns: Column<BookingView>[] = [
    {
      header: t("admin.col.client"),
      rowHeader: true,
      className: "admin-table__name",
      cell: (b) => (
        <>
          {who(b)}
          {b.clientName && b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
        </>
      ),
    },
    { header: t("admin.col.dateTime"), cell: (b) => longDateTime(b.sessionDate) },
    {
      header: t("admin.col.status"),
      cell: (b) => (
        <div>
          <AdminBadge status={b.status} />
          {b.canWaive ? <span className="admin-table__sub">{t("admin.sessions.lateUsed")}</span> : null}
        </div>
      ),
    },
    { header: t("admin.col.source"), cell: (b) => label(b.source) },
    { header: t("admin.col.details"), cell: (b) => <Details b={b} /> },
    { header: t("admin.col.actions"), hiddenHeader: true, className: "admin-table__actions", cell: (b) => <Actions b={b} onAction={props.onAction} /> },
  ];
  return (
    <Table
      label={t("admin.sessions.table")}
      caption={t("admin.sessions.caption")}
      columns={columns}
      rows={props.rows}
      rowKey={(b) => b.id}
      busy={props.loading}
      loadingRow={t("common.loadingSessions")}
      empty={
        <div className="empty">
          <p className="empty__title">{t("admin.sessions.none")}</p>
          {props.filtered ? <p>{t("admin.sessions.clearToSee")}</p> : <p>{t("admin.sessions.appearHere")}</p>}
        </div>
      }
    />
  );
}
