// The sessions table of Sessions Management: client, date, status, source and details of each
// session, with its Cancel, Waive and No-show buttons.
import type { BookingView } from "../api/types";
import { longDateTime } from "../lib/format";
import { canCancel, canMarkNoShow, label } from "./helpers";
import { AdminBadge, RowActions } from "./parts";
import { type Column, Table } from "./Table";

export type SessionAction = "cancel" | "no-show" | "waive";

/** Who a session is for, as the table and its prompts name them. */
export const who = (b: BookingView) => b.clientName || b.clientEmail || "Unknown client";

function Details({ b }: { b: BookingView }) {
  return (
    <div className="admin-table__details">
      {b.sessionNotes ? <span className="admin-table__notes">{b.sessionNotes}</span> : null}
      {b.googleMeetLink ? (
        <a href={b.googleMeetLink} target="_blank" rel="noopener noreferrer">
          Meet link<span className="visually-hidden"> for {who(b)} (opens in a new tab)</span>
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
          Cancel<span className="visually-hidden"> the session of {who(b)} on {longDateTime(b.sessionDate)}</span>
        </button>
      ) : null}
      {b.canWaive ? (
        <button type="button" className="btn btn--sm btn--outline" aria-haspopup="dialog" onClick={() => onAction("waive", b)}>
          Waive<span className="visually-hidden"> the late cancellation of {who(b)} on {longDateTime(b.sessionDate)}</span>
        </button>
      ) : null}
      {canMarkNoShow(b) ? (
        <button type="button" className="btn btn--sm btn--outline" onClick={() => onAction("no-show", b)}>
          No-show<span className="visually-hidden"> for {who(b)} on {longDateTime(b.sessionDate)}</span>
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
      header: "Client",
      rowHeader: true,
      className: "admin-table__name",
      cell: (b) => (
        <>
          {who(b)}
          {b.clientName && b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
        </>
      ),
    },
    { header: "Date and time", cell: (b) => longDateTime(b.sessionDate) },
    {
      header: "Status",
      cell: (b) => (
        <div>
          <AdminBadge status={b.status} />
          {b.canWaive ? <span className="admin-table__sub">Late: credit used</span> : null}
        </div>
      ),
    },
    { header: "Source", cell: (b) => label(b.source) },
    { header: "Details", cell: (b) => <Details b={b} /> },
    { header: "Actions", hiddenHeader: true, className: "admin-table__actions", cell: (b) => <Actions b={b} onAction={props.onAction} /> },
  ];
  return (
    <Table
      label="Sessions table"
      caption="Sessions"
      columns={columns}
      rows={props.rows}
      rowKey={(b) => b.id}
      busy={props.loading}
      loadingRow="Loading sessions…"
      empty={
        <div className="empty">
          <p className="empty__title">No sessions found matching the current filters</p>
          {props.filtered ? <p>Clear the filters to see every session.</p> : <p>Sessions booked on the scheduler or by phone appear here.</p>}
        </div>
      }
    />
  );
}
