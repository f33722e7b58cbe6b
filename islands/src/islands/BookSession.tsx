// /book-session (spec §2): the client's available credits; with credits, the embedded
// scheduling page (name and email prefilled by the API) and a way to open it in a new window;
// without, a no-credits message. Signed-out visitors go to /auth, admins to /admin.
// When the scheduler says a booking was made (its `calendly.event_scheduled` message), the page
// says the booking is being confirmed and asks the API again until the webhook has landed.
// The parts are in ../client/BookingParts.
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../lib/toast";
import { type Confirmation, ConfirmationNote, CreditsBar, NoCredits, Scheduler } from "../client/BookingParts";
import { GET } from "../lib/api";
import type { BookSessionView } from "../api/types";
import { webUrl } from "../lib/web";
import { t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { currentSession, go, redirectFor } from "../lib/session";
import { REFRESH_DELAYS_MS, isScheduledMessage, originOf } from "../lib/scheduled";
import { Spinner } from "../lib/ui";

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
      toast.error(t("common.error.title"), { description: t("client.error.load") });
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
        <p className="client-error__text">{t("client.error.load")}</p>
        <button type="button" className="btn btn--navy" onClick={() => void load()}>
          {t("common.tryAgain")}
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

export const mount = mountIsland(BookSession, ["booking"]);
