// One of the dashboard's upcoming sessions: its title, status and time, Join Meeting,
// Reschedule and Cancel, and for a pending booking made with the client's email but not from
// /book-session, 'Use 1 credit for this session' and 'This wasn't me'.
import { useId } from "react";
import type { SessionView } from "../api/types";
import { joinLink, sessionTitle } from "../lib/client-views";
import { longDateTime } from "../lib/format";
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
          Join Meeting
        </a>
      ) : null}
      <SessionActions session={session} newTabNote={newTabNote} onCancelled={onChanged} />
      {asks ? (
        <div className="client-session__ask" role="group" aria-label={`Pending session on ${longDateTime(session.sessionDate)}`}>
          <p className="client-session__note">
            {session.canDisown
              ? "This session was booked on our calendar with your email address, but not from your Book a Session page, so no credit was used. Is it yours?"
              : "No credit was available when this session was booked, so it is not confirmed yet."}
          </p>
          <div className="client-session__actions">
            {session.canClaim ? (
              <button type="button" className="btn btn--gold btn--sm" disabled={busy} aria-busy={busy} onClick={() => onAnswer(session, "claim")}>
                Use 1 credit for this session
              </button>
            ) : null}
            {session.canDisown ? (
              <button type="button" className="btn btn--outline btn--sm" disabled={busy} onClick={() => onAnswer(session, "disown")}>
                This wasn&apos;t me
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </li>
  );
}
