// /book-session (spec §2): the client's available credits; with credits, the embedded
// scheduling page (name and email prefilled by the API) and a way to open it in a new window;
// without, a no-credits message. Signed-out visitors go to /auth, admins to /admin.
// When the scheduler says a booking was made (its `calendly.event_scheduled` message), the page
// says the booking is being confirmed and asks the API again until the webhook has landed.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { GET } from "../lib/api";
import type { BookSessionView } from "../api/types";
import { webUrl } from "../lib/client-views";
import { mountIsland } from "../lib/mount";
import { currentSession, go, redirectFor } from "../lib/session";
import { REFRESH_DELAYS_MS, isScheduledMessage, originOf } from "../lib/scheduled";
import { Spinner } from "../lib/ui";

const LOAD_ERROR = "Failed to load your data. Please try again.";

function CreditsBar({ credits, back }: { credits: number; back: boolean }) {
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

function Scheduler({ view }: { view: BookSessionView }) {
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

type Confirmation = { kind: "confirming" } | { kind: "confirmed"; credits: number } | { kind: "slow" };

function ConfirmationNote({ state }: { state: Confirmation | null }) {
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

function NoCredits() {
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

function BookSession() {
  const [view, setView] = useState<BookSessionView | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      const target = redirectFor("book-session", await currentSession());
      if (target) return go(target);
      setView(await GET("/api/book-session"));
    } catch (e) {
      console.error("book-session load", e);
      toast.error("Error", { description: LOAD_ERROR });
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // The scheduler said "You are scheduled": confirm it from the API once the webhook landed.
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const before = useRef<number | null>(null);
  const schedulerOrigin = view ? originOf(webUrl(view.schedulerUrl) ?? "", window.location.href) : null;
  before.current = view && confirmation === null ? view.availableCredits : before.current;
  useEffect(() => {
    if (!schedulerOrigin) return;
    let alive = true;
    let polling = false;
    const onMessage = async (e: MessageEvent) => {
      if (!isScheduledMessage(e.origin, e.data, schedulerOrigin) || polling) return;
      polling = true;
      setConfirmation({ kind: "confirming" });
      const start = before.current;
      for (const wait of REFRESH_DELAYS_MS) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        if (!alive) return;
        try {
          const next = await GET("/api/book-session");
          if (!alive) return;
          if (start === null || next.availableCredits < start) {
            // Keep the scheduler's frame (it shows the booking) even at 0 credits left.
            setView((v) => (v ? { ...v, availableCredits: next.availableCredits } : next));
            setConfirmation({ kind: "confirmed", credits: next.availableCredits });
            polling = false;
            return;
          }
        } catch (err) {
          console.error("book-session refresh", err);
        }
      }
      if (alive) setConfirmation({ kind: "slow" });
      polling = false;
    };
    const listener = (e: MessageEvent) => void onMessage(e);
    window.addEventListener("message", listener);
    return () => {
      alive = false;
      window.removeEventListener("message", listener);
    };
  }, [schedulerOrigin]);

  if (failed) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{LOAD_ERROR}</p>
        <button type="button" className="btn btn--navy" onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  }
  if (!view) return <Spinner />;
  const hasCredits = view.availableCredits > 0 || confirmation !== null;
  return (
    <div className="client-book">
      <CreditsBar credits={view.availableCredits} back={hasCredits} />
      <ConfirmationNote state={confirmation} />
      {hasCredits ? <Scheduler view={view} /> : <NoCredits />}
    </div>
  );
}

export const mount = mountIsland(BookSession);
