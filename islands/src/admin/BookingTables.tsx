// The two tables of Booking Management: the bookings that need attention (made without proof
// of who the client is, or without a credit), with Assign to client and Cancel, and the 10 most
// recent bookings.
import type { BookingView } from "../api/types";
import { longDateTime, shortDate } from "../lib/format";
import { t } from "../lib/i18n";
import { label } from "./helpers";
import { preloadDialogs } from "./lazy";
import { AdminBadge, DialogButton, RowActions } from "./parts";
import { type Column, Table } from "./Table";

/** Who booked: the invitee's name or email. */
export const bookedBy = (b: BookingView) => b.clientName || b.clientEmail || t("admin.bookings.unknownInvitee");

const loading = () => (
  <p className="admin-muted" role="status">
    {t("admin.bookings.loading")}
  </p>
);

const session = (): Column<BookingView> => ({
  header: t("admin.col.session"),
  cell: (b) => (
    <>
      {longDateTime(b.sessionDate)}
      {b.sessionNotes ? <span className="admin-table__sub">{b.sessionNotes}</span> : null}
    </>
  ),
});
const status = (): Column<BookingView> => ({ header: t("admin.col.status"), cell: (b) => <AdminBadge status={b.status} /> });

export function NeedsAttentionTable({ rows, onAssign, onCancel }: { rows: BookingView[] | null; onAssign: (b: BookingView) => void; onCancel: (b: BookingView) => void }) {
  const columns: Column<BookingView>[] = [
    {
      header: t("admin.col.bookedBy"),
      rowHeader: true,
      className: "admin-table__name",
      cell: (b) => (
        <>
          {bookedBy(b)}
          {b.clientName && b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
        </>
      ),
    },
    session(),
    status(),
    {
      header: t("admin.col.why"),
      cell: (b) => (
        <>
          {b.clientId ? t("admin.bookings.whyNoCredit") : t("admin.bookings.whyNoProof")}
          {b.disownedAt ? <span className="admin-table__sub">{t("admin.bookings.disowned")}</span> : null}
        </>
      ),
    },
    {
      header: t("admin.col.actions"),
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (b) => (
        <RowActions>
          <DialogButton className="btn btn--sm btn--navy" preload={preloadDialogs} onOpen={() => onAssign(b)}>
            {t("admin.assign.title")}
            <span className="visually-hidden">{t("admin.bookings.assignHidden", { who: bookedBy(b), when: longDateTime(b.sessionDate) })}</span>
          </DialogButton>
          <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={preloadDialogs} onOpen={() => onCancel(b)}>
            {t("common.cancel")}
            <span className="visually-hidden">{t("admin.bookings.cancelHidden", { who: bookedBy(b), when: longDateTime(b.sessionDate) })}</span>
          </DialogButton>
        </RowActions>
      ),
    },
  ];
  return (
    <Table
      label={t("admin.bookings.attentionTable")}
      caption={t("admin.bookings.attentionTable")}
      columns={columns}
      rows={rows}
      rowKey={(b) => b.id}
      loading={loading()}
      empty={<p className="admin-muted">{t("admin.bookings.noneAttention")}</p>}
    />
  );
}

const recent = (): Column<BookingView>[] => [
  {
    header: t("admin.col.client"),
    rowHeader: true,
    className: "admin-table__name",
    cell: (b) => (
      <>
        {b.clientName || t("admin.unknownClient")}
        {b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
      </>
    ),
  },
  session(),
  status(),
  { header: t("admin.col.source"), cell: (b) => label(b.source) },
  { header: t("admin.col.booked"), className: "nowrap", cell: (b) => shortDate(b.createdAt) },
];

export function RecentBookingsTable({ rows, scheduler }: { rows: BookingView[] | null; scheduler: string }) {
  return (
    <Table
      label={t("admin.bookings.recentTable")}
      caption={t("admin.bookings.recentCaption")}
      columns={recent()}
      rows={rows}
      rowKey={(b) => b.id}
      loading={loading()}
      empty={
        <div className="empty">
          <p className="empty__title">{t("admin.bookings.noneRecent")}</p>
          <p>{t("admin.bookings.noneRecentText", { scheduler })}</p>
        </div>
      }
    />
  );
}
