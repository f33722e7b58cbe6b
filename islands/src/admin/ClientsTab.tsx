// Client Management: the clients table with a search by name or email (?search=, debounced)
// and the 'Add User' dialog.
import { Suspense, useEffect, useState } from "react";
import { toast } from "../lib/toast";
import { GET } from "../lib/api";
import { t } from "../lib/i18n";
import type { ClientRow } from "../api/types";
import { ClientsTable } from "./ClientsTable";
import { CreateUserDialog, preloadDialogs } from "./lazy";
import { DialogButton, PlusIcon } from "./parts";

const DEBOUNCE_MS = 300;

export function ClientsTab({ refreshKey, onChanged }: { refreshKey: number; onChanged: () => void }) {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [rows, setRows] = useState<ClientRow[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    const t = window.setTimeout(() => setQuery(search.trim()), DEBOUNCE_MS);
    return () => window.clearTimeout(t);
  }, [search]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    GET("/api/admin/clients", { query: { search: query.trim() } })
      .then((r) => live && setRows(r))
      .catch(() => live && toast.error(t("admin.clients.loadError"), { description: t("admin.clients.loadFailed") }))
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
            {t("admin.tabs.clients")}
          </h2>
          <p className="admin-panel__lead">{t("admin.clients.lead")}</p>
        </div>
        <DialogButton className="btn btn--navy btn--sm" preload={preloadDialogs} onOpen={() => setAdding(true)}>
          <PlusIcon />
          {t("admin.addUser")}
        </DialogButton>
      </div>

      <div className="admin-toolbar" role="search">
        <div className="field admin-toolbar__grow">
          <label className="field__label" htmlFor="client-search">
            {t("admin.clients.search")}
          </label>
          <input
            className="input"
            id="client-search"
            type="search"
            placeholder={t("admin.clients.searchHint")}
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>

      <p className="visually-hidden" aria-live="polite">
        {loading || rows === null ? "" : t("admin.clients.found", { count: list.length })}
      </p>

      <ClientsTable rows={rows} query={query} loading={loading} />

      {adding ? (
        <Suspense fallback={null}>
          <CreateUserDialog open onOpenChange={setAdding} onCreated={onChanged} />
        </Suspense>
      ) : null}
    </section>
  );
}
