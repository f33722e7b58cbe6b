// The two tables of Booking Management: the bookings that need attention (made without proof
// of who the client is, or without a credit), with Assign to client and Cancel, and the 10 most
// recent bookings.
import type { BookingView } from "../api/types";
import { longDateTime, shortDate } from "../lib/format";
import { label } from "./helpers";
import { preloadDialogs } from "./lazy";
import { AdminBadge, DialogButton, RowActions } from "./parts";
import { type Column, Table } from "./Table";

/** Who booked: the invitee's name or email. */
export const bookedBy = (b: BookingView) => b.clientName || b.clientEmail || "Unknown invitee";

const LOADING = (
  <p className="admin-muted" role="status">
    Loading bookings…
  </p>
);

const session: Column<BookingView> = {
  header: "Session",
  cell: (b) => (
    <>
      {longDateTime(b.sessionDate)}
      {b.sessionNotes ? <span className="admin-table__sub">{b.sessionNotes}</span> : null}
    </>
  ),
};
const status: Column<BookingView> = { header: "Status", cell: (b) => <AdminBadge status={b.status} /> };

export function NeedsAttentionTable({ rows, onAssign, onCancel }: { rows: BookingView[] | null; onAssign: (b: BookingView) => void; onCancel: (b: BookingView) => void }) {
  const columns: Column<BookingView>[] = [
    {
      header: "Booked by",
      rowHeader: true,
      className: "admin-table__name",
      cell: (b) => (
        <>
          {bookedBy(b)}
          {b.clientName && b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
        </>
      ),
    },
    session,
    status,
    {
      header: "Why",
      cell: (b) => (
        <>
          {b.clientId ? "The client had no credit" : "Not assigned: no proof of the client"}
          {b.disownedAt ? <span className="admin-table__sub">The client with this email said it wasn&apos;t them.</span> : null}
        </>
      ),
    },
    {
      header: "Actions",
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (b) => (
        <RowActions>
          <DialogButton className="btn btn--sm btn--navy" preload={preloadDialogs} onOpen={() => onAssign(b)}>
            Assign to client<span className="visually-hidden">: the session booked by {bookedBy(b)} on {longDateTime(b.sessionDate)}</span>
          </DialogButton>
          <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={preloadDialogs} onOpen={() => onCancel(b)}>
            Cancel<span className="visually-hidden"> the session booked by {bookedBy(b)} on {longDateTime(b.sessionDate)}</span>
          </DialogButton>
        </RowActions>
      ),
    },
  ];
  return (
    <Table
      label="Bookings that need attention"
      caption="Bookings that need attention"
      columns={columns}
      rows={rows}
      rowKey={(b) => b.id}
      loading={LOADING}
      empty={<p className="admin-muted">No bookings need attention.</p>}
    />
  );
}

const RECENT: Column<BookingView>[] = [
  {
    header: "Client",
    rowHeader: true,
    className: "admin-table__name",
    cell: (b) => (
      <>
        {b.clientName || "Unknown client"}
        {b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
      </>
    ),
  },
  session,
  status,
  { header: "Source", cell: (b) => label(b.source) },
  { header: "Booked", className: "nowrap", cell: (b) => shortDate(b.createdAt) },
];

export function RecentBookingsTable({ rows, scheduler }: { rows: BookingView[] | null; scheduler: string }) {
  return (
    <Table
      label="Recent bookings table"
      caption="The 10 most recent bookings"
      columns={RECENT}
      rows={rows}
      rowKey={(b) => b.id}
      loading={LOADING}
      empty={
        <div className="empty">
          <p className="empty__title">No recent bookings found</p>
          <p>New bookings from {scheduler} and phone bookings appear here.</p>
        </div>
      }
    />
  );
}
