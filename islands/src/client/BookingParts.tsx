// The parts of /book-session: the credits bar, the embedded scheduling page with its steps, the
// note that follows a booking while it is confirmed, and the page without credits.
import { useId } from "react";
import type { BookSessionView } from "../api/types";
import { webUrl } from "../lib/client-views";

export function CreditsBar({ credits, back }: { credits: number; back: boolean }) {
  return (
    <div className="client-book-credits">
      <p className="client-book-credits__text">
        <span className="client-book-credits__label">Available credits</span>
        <span className="client-book-credits__value">{credits}</span>
      </p>
      {back ? (
        <a className="link-arrow link-arrow--back" href="/dashboard">
          Back to Dashboard
        </a>
      ) : null}
    </div>
  );
}

export function Scheduler({ view }: { view: BookSessionView }) {
  const url = webUrl(view.schedulerUrl);
  const note = useId();
  return (
    <section className="panel client-book-panel" aria-labelledby="client-book-title">
      <h2 className="panel__title" id="client-book-title">
        Choose a time for your session
      </h2>
      <ol className="client-steps" role="list">
        <li>Pick a date and time that suits you in the calendar below.</li>
        <li>Confirm your details. Your name and email are already filled in.</li>
        <li>You will receive a confirmation email, and the session appears on your dashboard. Each session uses one credit.</li>
      </ol>
      {url ? (
        <>
          <div className="client-scheduler">
            <iframe className="client-scheduler__frame" title="Book a session" src={url} width="100%" height="760" loading="lazy" />
          </div>
          <div className="client-book-actions">
            <a className="btn btn--outline" href={url} target="_blank" rel="noopener" aria-describedby={note}>
              Open in new window
            </a>
            <span className="visually-hidden" id={note}>
              Opens the {view.schedulerName || "scheduling"} page in a new tab
            </span>
          </div>
        </>
      ) : (
        <p className="notice">The booking calendar is not available right now. Please try again later or contact us.</p>
      )}
      <p className="client-book-note">You can cancel or reschedule a session up to 24 hours before it starts.</p>
    </section>
  );
}

export type Confirmation = { kind: "confirming" } | { kind: "confirmed"; credits: number } | { kind: "slow" };

export function ConfirmationNote({ state }: { state: Confirmation | null }) {
  // Always in the page, so screen readers announce each change of its text.
  return (
    <div className={`client-book-status${state ? ` client-book-status--${state.kind}` : ""}`} role="status">
      {state?.kind === "confirming" ? (
        <p className="client-book-status__text">
          <span className="spinner spinner--sm" aria-hidden="true" /> Thank you. Your booking is being confirmed…
        </p>
      ) : null}
      {state?.kind === "confirmed" ? (
        <p className="client-book-status__text">
          Your session is booked and 1 credit was used. You have {state.credits} {state.credits === 1 ? "credit" : "credits"} left.{" "}
          <a href="/dashboard">See it on your dashboard</a>
        </p>
      ) : null}
      {state?.kind === "slow" ? (
        <p className="client-book-status__text">
          Your booking was received and is still being confirmed. It will appear on your <a href="/dashboard">dashboard</a> shortly, with a confirmation
          email.
        </p>
      ) : null}
    </div>
  );
}

export function NoCredits() {
  return (
    <section className="panel panel--dashed client-book-empty" aria-labelledby="client-book-empty-title">
      <h2 className="client-book-empty__title" id="client-book-empty-title">
        You have no session credits left.
      </h2>
      <p className="client-book-empty__text">Buy a coaching package to add credits, then come back here to book your next session.</p>
      <div className="client-book-actions client-book-actions--center">
        <a className="btn btn--gold" href="/pricing">
          Buy Credits
        </a>
        <a className="btn btn--outline" href="/dashboard">
          Back to Dashboard
        </a>
      </div>
    </section>
  );
}
