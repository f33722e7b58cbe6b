// The sponsors: company, billing contact, executives, engagements and whether it is archived,
// with Open, Edit and Archive per row (a card per sponsor on a phone).
import { t } from "../../lib/i18n";
import type { SponsorView } from "../../sponsors/types";
import { DialogButton, RowActions } from "../parts";
import { type Column, Table } from "../Table";

export function ArchivedBadge() {
  return <span className="status-badge status-badge--danger">{t("admin.sponsors.status.archived")}</span>;
}

function executives(s: SponsorView) {
  if (s.executives.length === 0) return <span className="admin-muted">{t("admin.sponsors.noExecutives")}</span>;
  return (
    <>
      {t("admin.sponsors.executiveCount", { count: s.executives.length })}
      <span className="admin-table__sub">{s.executives.map((e) => e.name).join(", ")}</span>
    </>
  );
}

function columns(onOpen: (s: SponsorView) => void, onEdit: (s: SponsorView) => void, onArchive: (s: SponsorView) => void): Column<SponsorView>[] {
  return [
    {
      header: t("admin.sponsors.col.company"),
      rowHeader: true,
      className: "admin-table__name",
      cell: (s) => (
        <button type="button" className="link-button" onClick={() => onOpen(s)}>
          {s.name}
        </button>
      ),
    },
    {
      header: t("admin.sponsors.col.contact"),
      cell: (s) => (
        <>
          {s.contactName}
          <span className="admin-table__sub">
            <a href={`mailto:${s.contactEmail}`}>{s.contactEmail}</a>
          </span>
        </>
      ),
    },
    { header: t("admin.sponsors.col.executives"), cell: executives },
    { header: t("admin.sponsors.col.engagements"), numeric: true, cell: (s) => s.engagementCount },
    {
      header: t("admin.sponsors.col.status"),
      cell: (s) => (s.archivedAt ? <ArchivedBadge /> : <span className="status-badge status-badge--success">{t("admin.sponsors.status.active")}</span>),
    },
    {
      header: t("admin.sponsors.col.actions"),
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (s) => (
        <RowActions>
          <button type="button" className="btn btn--navy btn--sm" onClick={() => onOpen(s)}>
            {t("admin.sponsors.open")}
            <span className="visually-hidden"> {s.name}</span>
          </button>
          <DialogButton className="btn btn--outline btn--sm" preload={() => undefined} onOpen={() => onEdit(s)}>
            {t("admin.sponsors.edit")}
            <span className="visually-hidden"> {s.name}</span>
          </DialogButton>
          {s.archivedAt ? null : (
            <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={() => undefined} onOpen={() => onArchive(s)}>
              {t("admin.sponsors.archive")}
              <span className="visually-hidden"> {s.name}</span>
            </DialogButton>
          )}
        </RowActions>
      ),
    },
  ];
}

export function SponsorsTable(props: {
  rows: SponsorView[] | null;
  onOpen: (s: SponsorView) => void;
  onEdit: (s: SponsorView) => void;
  onArchive: (s: SponsorView) => void;
}) {
  return (
    <Table
      labelledBy="sponsors-page-title"
      columns={columns(props.onOpen, props.onEdit, props.onArchive)}
      rows={props.rows}
      rowKey={(s) => s.id}
      loadingRow={t("admin.sponsors.loading")}
      empty={
        <div className="empty">
          <p className="empty__title">{t("admin.sponsors.empty")}</p>
          <p>{t("admin.sponsors.emptyText")}</p>
        </div>
      }
    />
  );
}
