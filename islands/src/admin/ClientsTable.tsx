// The clients table of Client Management: on a wide screen a row of eight columns per client,
// on a phone a card of four short lines (name with email and phone, credits, sessions, joined)
// with labels that fit their column. A client whose coaching a company pays for has a line
// "Sponsored by …" under the name.
import type { ClientRow } from "../api/types";
import { shortDate } from "../lib/format";
import { localPath, t } from "../lib/i18n";
import { type Column, Table } from "./Table";

/** "3 / 5": available credits (green, red at none) of the total. */
function Credits({ c }: { c: ClientRow }) {
  return (
    <>
      <span className={c.available_credits > 0 ? "admin-credits" : "admin-credits admin-credits--none"}>{c.available_credits}</span>
      <span className="admin-muted"> / {c.total_credits}</span>
    </>
  );
}

/** The companies that pay for some of the client's coaching (issue 23). */
export const sponsorsOf = (c: ClientRow): string[] => c.sponsors ?? [];

/** The client's name, linked to their page, and "Sponsored by Nile Pharma" under it. */
function profileLink(c: ClientRow) {
  const sponsors = sponsorsOf(c);
  return (
    <>
      <a href={localPath(`/admin/client?id=${encodeURIComponent(c.user_id)}`)}>{c.full_name}</a>
      {sponsors.length ? <span className="admin-table__sub">{t("admin.clients.sponsoredBy", { names: sponsors.join(", ") })}</span> : null}
    </>
  );
}
const joined = (): Column<ClientRow> => ({ header: t("admin.clients.col.joined"), className: "nowrap", cell: (c) => shortDate(c.created_at) });

const wide = (): Column<ClientRow>[] => [
  { header: t("admin.clients.col.name"), rowHeader: true, className: "admin-table__name", cell: profileLink },
  { header: t("admin.clients.col.email"), cell: (c) => <a href={`mailto:${c.email}`}>{c.email}</a> },
  { header: t("admin.clients.col.phone"), className: "nowrap", cell: (c) => (c.phone ? <span dir="ltr">{c.phone}</span> : <span className="admin-muted">—</span>) },
  { header: t("admin.clients.col.credits"), note: t("admin.clients.col.creditsNote"), numeric: true, className: "nowrap", cell: (c) => <Credits c={c} /> },
  { header: t("admin.clients.col.sessions"), numeric: true, cell: (c) => c.session_count },
  { header: t("admin.clients.col.completed"), numeric: true, cell: (c) => c.completed_sessions },
  { header: t("admin.clients.col.upcoming"), numeric: true, cell: (c) => c.upcoming_sessions },
  joined(),
];

const phone = (): Column<ClientRow>[] => [
  {
    header: t("admin.clients.col.client"),
    rowHeader: true,
    className: "admin-table__name",
    cell: (c) => (
      <>
        {profileLink(c)}
        <span className="admin-table__sub">
          <a href={`mailto:${c.email}`}>{c.email}</a>
        </span>
        {c.phone ? (
          <span className="admin-table__sub" dir="ltr">
            {c.phone}
          </span>
        ) : null}
      </>
    ),
  },
  {
    header: t("admin.clients.col.credits"),
    cell: (c) => (
      <>
        <Credits c={c} />
        <span className="admin-muted">{"\u00a0"}{t("admin.clients.available")}</span>
      </>
    ),
  },
  {
    header: t("admin.clients.col.sessions"),
    cell: (c) => (
      <>
        {c.session_count}
        <span className="admin-muted">
          {"\u00a0"}· {t("admin.clients.sessionsSplit", { completed: c.completed_sessions, upcoming: c.upcoming_sessions })}
        </span>
      </>
    ),
  },
  joined(),
];

export function ClientsTable({ rows, query, loading }: { rows: ClientRow[] | null; query: string; loading: boolean }) {
  return (
    <Table
      label={t("admin.clients.table")}
      caption={query ? t("admin.clients.captionMatching", { query }) : t("admin.clients.caption")}
      columns={wide()}
      phone={{ columns: phone() }}
      rows={rows}
      rowKey={(c) => c.user_id}
      busy={loading}
      loadingRow={t("admin.clients.loading")}
      empty={
        <div className="empty">
          <p className="empty__title">{query ? t("admin.clients.noneMatching") : t("admin.clients.none")}</p>
          {query ? <p>{t("admin.clients.tryOther")}</p> : <p>{t("admin.clients.useAddUser")}</p>}
        </div>
      }
    />
  );
}
