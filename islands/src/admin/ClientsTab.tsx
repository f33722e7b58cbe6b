// Client Management: the clients table with a search by name or email (?search=, debounced)
// and the 'Add User' dialog.
import { Suspense, useEffect, useState } from "react";
import { toast } from "sonner";
import { GET } from "../lib/api";
import { shortDate } from "../lib/format";
import { useNarrow } from "../lib/narrow";
import type { ClientRow } from "../api/types";
import { CreateUserDialog, preloadDialogs } from "./lazy";
import { DialogButton, PlusIcon } from "./parts";

const DEBOUNCE_MS = 300;

/** "3 / 5": available credits (green, red at none) of the total. */
function Credits({ c }: { c: ClientRow }) {
  return (
    <>
      <span className={c.available_credits > 0 ? "admin-credits" : "admin-credits admin-credits--none"}>{c.available_credits}</span>
      <span className="admin-muted"> / {c.total_credits}</span>
    </>
  );
}

/** One client: on a phone a card of four short lines, on a wider screen a row of eight columns. */
function ClientLine({ c, narrow }: { c: ClientRow; narrow: boolean }) {
  return narrow ? (
    <tr>
      <th scope="row" className="admin-table__name">
        <a href={`/admin/client?id=${encodeURIComponent(c.user_id)}`}>{c.full_name}</a>
        <span className="admin-table__sub">
          <a href={`mailto:${c.email}`}>{c.email}</a>
        </span>
        {c.phone ? <span className="admin-table__sub">{c.phone}</span> : null}
      </th>
      <td>
        <Credits c={c} />
        <span className="admin-muted">{"\u00a0"}available</span>
      </td>
      <td>
        {c.session_count}
        <span className="admin-muted">
          {"\u00a0"}· {c.completed_sessions} completed · {c.upcoming_sessions} upcoming
        </span>
      </td>
      <td className="nowrap">{shortDate(c.created_at)}</td>
    </tr>
  ) : (
    <tr>
      <th scope="row" className="admin-table__name">
        <a href={`/admin/client?id=${encodeURIComponent(c.user_id)}`}>{c.full_name}</a>
      </th>
      <td>
        <a href={`mailto:${c.email}`}>{c.email}</a>
      </td>
      <td className="nowrap">{c.phone || <span className="admin-muted">—</span>}</td>
      <td className="num nowrap">
        <Credits c={c} />
      </td>
      <td className="num">{c.session_count}</td>
      <td className="num">{c.completed_sessions}</td>
      <td className="num">{c.upcoming_sessions}</td>
      <td className="nowrap">{shortDate(c.created_at)}</td>
    </tr>
  );
}

export function ClientsTab({ refreshKey, onChanged }: { refreshKey: number; onChanged: () => void }) {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [rows, setRows] = useState<ClientRow[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [adding, setAdding] = useState(false);
  const narrow = useNarrow();

  useEffect(() => {
    const t = window.setTimeout(() => setQuery(search.trim()), DEBOUNCE_MS);
    return () => window.clearTimeout(t);
  }, [search]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    GET("/api/admin/clients", { query: { search: query.trim() } })
      .then((r) => live && setRows(r))
      .catch(() => live && toast.error("Error Loading Clients", { description: "Failed to load clients." }))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [query, refreshKey]);

  const list = rows ?? [];
  return (
    <section className="panel admin-panel" aria-labelledby="clients-title">
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id="clients-title">
            Client Management
          </h2>
          <p className="admin-panel__lead">Every client account with its credits and sessions.</p>
        </div>
        <DialogButton className="btn btn--navy btn--sm" preload={preloadDialogs} onOpen={() => setAdding(true)}>
          <PlusIcon />
          Add User
        </DialogButton>
      </div>

      <div className="admin-toolbar" role="search">
        <div className="field admin-toolbar__grow">
          <label className="field__label" htmlFor="client-search">
            Search clients
          </label>
          <input
            className="input"
            id="client-search"
            type="search"
            placeholder="Search by name or email"
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>

      <p className="visually-hidden" aria-live="polite">
        {loading || rows === null ? "" : `${list.length} ${list.length === 1 ? "client" : "clients"} found`}
      </p>

      {rows !== null && list.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{query ? "No users found matching your search" : "No users found"}</p>
          {query ? <p>Try a different name or email address.</p> : <p>Use Add User to create the first client account.</p>}
        </div>
      ) : (
        <div className="table-wrap" aria-busy={loading} tabIndex={0} role="region" aria-label="Clients table">
          <table className="data-table admin-table">
            <caption className="visually-hidden">Clients{query ? ` matching “${query}”` : ""}</caption>
            <thead>
              {narrow ? (
                // On a phone each row is a card: four short lines (name with email and phone,
                // credits, sessions, joined) instead of eight, with labels that fit their column.
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Sessions</th>
                  <th scope="col">Joined</th>
                </tr>
              ) : (
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Phone</th>
                  <th scope="col" className="num">
                    Credits <span className="admin-th-note">available / total</span>
                  </th>
                  <th scope="col" className="num">
                    Sessions
                  </th>
                  <th scope="col" className="num">
                    Completed
                  </th>
                  <th scope="col" className="num">
                    Upcoming
                  </th>
                  <th scope="col">Joined</th>
                </tr>
              )}
            </thead>
            <tbody>
              {list.map((c) => (
                <ClientLine key={c.user_id} c={c} narrow={narrow} />
              ))}
              {rows === null ? (
                <tr>
                  <td colSpan={8} className="admin-table__loading">
                    Loading clients…
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}

      {adding ? (
        <Suspense fallback={null}>
          <CreateUserDialog open onOpenChange={setAdding} onCreated={onChanged} />
        </Suspense>
      ) : null}
    </section>
  );
}
