// One of the dashboard's upcoming sessions: its title, status and time, Join Meeting,
// Reschedule and Cancel, and for a pending booking made with the client's email but not from
// /book-session, 'Use 1 credit for this session' and 'This wasn't me'.
import { useId } from "react";
import type { SessionView } from "../api/types";
import { joinLink, sessionTitle } from "../lib/client-views";
import { longDateTime } from "../lib/format";
import { t } from "../lib/i18n";
import { StatusBadge } from "../lib/ui";
import { CalendarIcon } from "./icons";
import { SessionActions } from "./SessionActions";

export type Answer = "claim" | "disown";

export function SessionCard({
  session,
  newTabNote,
  busy,
  onAnswer,
  onChanged,
}: {
  session: SessionView;
  newTabNote: string;
  busy: boolean;
  onAnswer: (session: SessionView, answer: Answer) => void;
  onChanged: () => void;
}) {
  const meet = joinLink(session);
  const titleId = useId();
  const asks = session.canClaim || session.canDisown;
  return (
    <li className="client-session" aria-labelledby={titleId}>
      <div className="client-session__head">
        <h3 className="client-session__title" id={titleId}>
          {sessionTitle(session.sessionNotes)}
        </h3>
        <StatusBadge status={session.status} />
      </div>
      <p className="client-session__date">
        <CalendarIcon />
        <time dateTime={session.sessionDate}>{longDateTime(session.sessionDate)}</time>
      </p>
      {meet ? (
        <a className="btn btn--navy btn--sm client-session__join" href={meet} target="_blank" rel="noopener" aria-describedby={newTabNote}>
          {t("client.session.join")}
        </a>
      ) : null}
      <SessionActions session={session} newTabNote={newTabNote} onCancelled={onChanged} />
      {asks ? (
        <div className="client-session__ask" role="group" aria-label={t("client.session.pendingLabel", { when: longDateTime(session.sessionDate) })}>
          <p className="client-session__note">
            {session.canDisown ? t("client.session.disownAsk") : t("client.session.noCredit")}
          </p>
          <div className="client-session__actions">
            {session.canClaim ? (
              <button type="button" className="btn btn--gold btn--sm" disabled={busy} aria-busy={busy} onClick={() => onAnswer(session, "claim")}>
                {t("client.session.claim")}
              </button>
            ) : null}
            {session.canDisown ? (
              <button type="button" className="btn btn--outline btn--sm" disabled={busy} onClick={() => onAnswer(session, "disown")}>
                {t("client.session.disown")}
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </li>
  );
}
