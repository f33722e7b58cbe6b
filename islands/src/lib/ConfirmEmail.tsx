// The dashboard's word on an unconfirmed email: the account works before it is confirmed, so
// this says what confirming is for and lets the client have the link sent again.
import { useState } from "react";
import { ApiError, POST } from "./api";

type State = "idle" | "sending" | "sent" | "error";

export function ConfirmEmailBanner({ email }: { email: string }) {
  const [state, setState] = useState<State>("idle");
  const [error, setError] = useState("");
  const resend = async () => {
    setState("sending");
    try {
      await POST("/api/auth/confirm/resend", {});
      setState("sent");
    } catch (e) {
      setError(e instanceof ApiError && e.status !== 0 && e.status < 500 ? e.message : "We could not send the email. Please try again later.");
      setState("error");
    }
  };
  return (
    <section className="confirm-banner" aria-labelledby="confirm-banner-title">
      <h2 className="confirm-banner__title" id="confirm-banner-title">
        Please confirm your email address
      </h2>
      <p className="confirm-banner__text">
        We sent a link to <strong>{email}</strong>. Confirming it lets us match the sessions you book with this email to your account, and makes sure
        your booking confirmations and receipts reach you.
      </p>
      <p className="confirm-banner__action" role="status">
        {state === "sent" ? (
          "A new confirmation link is on its way. Please check your inbox."
        ) : (
          <>
            {state === "error" ? <span className="confirm-banner__error">{error} </span> : null}
            <button type="button" className="link-button" onClick={() => void resend()} disabled={state === "sending"} aria-busy={state === "sending"}>
              {state === "sending" ? "Sending..." : "Resend the confirmation email"}
            </button>
          </>
        )}
      </p>
    </section>
  );
}
