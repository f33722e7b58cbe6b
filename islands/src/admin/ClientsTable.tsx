// The clients table of Client Management: on a wide screen a row of eight columns per client,
// on a phone a card of four short lines (name with email and phone, credits, sessions, joined)
// with labels that fit their column.
import type { ClientRow } from "../api/types";
import { shortDate } from "../lib/format";
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

const profileLink = (c: ClientRow) => <a href={`/admin/client?id=${encodeURIComponent(c.user_id)}`}>{c.full_name}</a>;
const joined: Column<ClientRow> = { header: "Joined", className: "nowrap", cell: (c) => shortDate(c.created_at) };

const WIDE: Column<ClientRow>[] = [
  { header: "Name", rowHeader: true, className: "admin-table__name", cell: profileLink },
  { header: "Email", cell: (c) => <a href={`mailto:${c.email}`}>{c.email}</a> },
  { header: "Phone", className: "nowrap", cell: (c) => c.phone || <span className="admin-muted">—</span> },
  { header: "Credits", note: "available / total", numeric: true, className: "nowrap", cell: (c) => <Credits c={c} /> },
  { header: "Sessions", numeric: true, cell: (c) => c.session_count },
  { header: "Completed", numeric: true, cell: (c) => c.completed_sessions },
  { header: "Upcoming", numeric: true, cell: (c) => c.upcoming_sessions },
  joined,
];

const PHONE: Column<ClientRow>[] = [
  {
    header: "Client",
    rowHeader: true,
    className: "admin-table__name",
    cell: (c) => (
      <>
        {profileLink(c)}
        <span className="admin-table__sub">
          <a href={`mailto:${c.email}`}>{c.email}</a>
        </span>
        {c.phone ? <span className="admin-table__sub">{c.phone}</span> : null}
      </>
    ),
  },
  {
    header: "Credits",
    cell: (c) => (
      <>
        <Credits c={c} />
        <span className="admin-muted">{"\u00a0"}available</span>
      </>
    ),
  },
  {
    header: "Sessions",
    cell: (c) => (
      <>
        {c.session_count}
        <span className="admin-muted">
          {"\u00a0"}· {c.completed_sessions} completed · {c.upcoming_sessions} upcoming
        </span>
      </>
    ),
  },
  joined,
];

export function ClientsTable({ rows, query, loading }: { rows: ClientRow[] | null; query: string; loading: boolean }) {
  return (
    <Table
      label="Clients table"
      caption={`Clients${query ? ` matching “${query}”` : ""}`}
      columns={WIDE}
      phone={{ columns: PHONE }}
      rows={rows}
      rowKey={(c) => c.user_id}
      busy={loading}
      loadingRow="Loading clients…"
      empty={
        <div className="empty">
          <p className="empty__title">{query ? "No users found matching your search" : "No users found"}</p>
          {query ? <p>Try a different name or email address.</p> : <p>Use Add User to create the first client account.</p>}
        </div>
      }
    />
  );
}
