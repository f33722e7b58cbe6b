// The dashboard's word on an unconfirmed email: the account works before it is confirmed, so
// this says what confirming is for and lets the client have the link sent again.
import { useState } from "react";
import { ApiError, POST } from "./api";
import { t } from "./i18n";
import { rich } from "./rich";

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
      setError(e instanceof ApiError && e.status !== 0 && e.status < 500 ? e.message : t("client.confirm.sendFailed"));
      setState("error");
    }
  };
  return (
    <section className="confirm-banner" aria-labelledby="confirm-banner-title">
      <h2 className="confirm-banner__title" id="confirm-banner-title">
        {t("client.confirm.title")}
      </h2>
      <p className="confirm-banner__text">{rich("client.confirm.text", { email, strong: (c) => <strong>{c}</strong> })}</p>
      <p className="confirm-banner__action" role="status">
        {state === "sent" ? (
          t("client.confirm.sent")
        ) : (
          <>
            {state === "error" ? <span className="confirm-banner__error">{error} </span> : null}
            <button type="button" className="link-button" onClick={() => void resend()} disabled={state === "sending"} aria-busy={state === "sending"}>
              {state === "sending" ? t("client.confirm.sending") : t("client.confirm.resend")}
            </button>
          </>
        )}
      </p>
    </section>
  );
}
