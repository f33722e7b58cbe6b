// The filters of Sessions Management: a client and a day (each change asks the API again), and
// Clear Filters.
import type { ClientRow } from "../api/types";
import { t } from "../lib/i18n";

export function SessionFilters(props: { clients: ClientRow[]; clientId: string; date: string; onClient: (id: string) => void; onDate: (day: string) => void }) {
  const filtered = props.clientId !== "" || props.date !== "";
  return (
    <div className="admin-toolbar" role="group" aria-label={t("admin.filters.label")}>
      <div className="field admin-toolbar__grow">
        <label className="field__label" htmlFor="filter-client">
          {t("admin.col.client")}
        </label>
        <select className="input" id="filter-client" value={props.clientId} onChange={(e) => props.onClient(e.target.value)}>
          <option value="">{t("admin.filters.allClients")}</option>
          {props.clients.map((c) => (
            <option key={c.user_id} value={c.user_id}>
              {c.full_name} ({c.email})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor="filter-date">
          {t("admin.col.date")}
        </label>
        <input className="input" id="filter-date" type="date" value={props.date} onChange={(e) => props.onDate(e.target.value)} />
      </div>
      <button
        type="button"
        className="btn btn--outline btn--sm admin-toolbar__button"
        disabled={!filtered}
        onClick={() => {
          props.onClient("");
          props.onDate("");
        }}
      >
        {t("admin.filters.clear")}
      </button>
    </div>
  );
}
