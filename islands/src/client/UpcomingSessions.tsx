// The dashboard's upcoming sessions with the status filter (All, Confirmed, Cancelled, Pending).
import { useState } from "react";
import type { SessionView } from "../api/types";
import { STATUS_FILTERS, type StatusFilter, emptySessionsText, filterLabel } from "../lib/client-views";
import { sessions } from "../lib/format";
import { localPath, t } from "../lib/i18n";
import { type Answer, SessionCard } from "./SessionCard";

export function UpcomingSessions(props: {
  sessions: SessionView[];
  filter: StatusFilter;
  busy: boolean;
  onFilter: (f: StatusFilter) => void;
  newTabNote: string;
  answering: string | null;
  onAnswer: (session: SessionView, answer: Answer) => void;
  onChanged: () => void;
}) {
  const { filter, busy } = props;
  const [filtered, setFiltered] = useState(false);
  return (
    <section className="panel client-card client-card--wide" aria-labelledby="client-sessions-title">
      <div className="client-panel-head">
        <h2 className="panel__title" id="client-sessions-title">
          {t("client.sessions.title")}
        </h2>
        <div className="client-filter" role="group" aria-label={t("client.sessions.filterLabel")}>
          {STATUS_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className="client-filter__btn"
              aria-pressed={f === filter}
              onClick={() => {
                if (f === filter) return;
                setFiltered(true);
                props.onFilter(f);
              }}
            >
              {filterLabel(f)}
            </button>
          ))}
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {busy ? t("common.loadingSessions") : filtered ? t("client.sessions.shown", { filter: filterLabel(filter), sessions: sessions(props.sessions.length) }) : ""}
      </p>
      <div className={busy ? "client-sessions client-sessions--busy" : "client-sessions"} aria-busy={busy}>
        {props.sessions.length > 0 ? (
          <ul className="client-session-list">
            {props.sessions.map((s) => (
              <SessionCard key={s.id} session={s} newTabNote={props.newTabNote} busy={props.answering === s.id} onAnswer={props.onAnswer} onChanged={props.onChanged} />
            ))}
          </ul>
        ) : (
          <div className="empty">
            <p className="empty__title">{emptySessionsText(filter)}</p>
            <p>{t("client.sessions.emptyText")}</p>
            <a className="btn btn--gold btn--sm client-empty-action" href={localPath("/book-session")}>
              {t("client.sessions.book")}
            </a>
          </div>
        )}
      </div>
    </section>
  );
}
