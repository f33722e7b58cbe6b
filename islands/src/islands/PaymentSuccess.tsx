// /payment/success (spec §2, §4, §9): waits 2 seconds, looks the transaction up by the cart id
// of the query (or the signed-in user's latest one), sends a failed payment to /payment/failed,
// asks again while it is pending (about 30 s), then shows the receipt. Verification errors are
// only logged (spec §8); the page then says, gently, that the payment is being confirmed.
import { useEffect, useRef, useState } from "react";
import { GET } from "../lib/api";
import { type PaymentView } from "../api/types";
import { Actions, Icon, Summary } from "../client/PaymentOutcome";
import { POLL_INTERVAL_MS, VERIFY_DELAY_MS, cartIdFrom, failedPath, verifyStep } from "../lib/payment-views";
import { t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { currentSession, go, signedInHint } from "../lib/session";

const HEADINGS = {
  verifying: "client.pay.verifying",
  success: "client.pay.success",
  processing: "client.pay.processing",
  unconfirmed: "client.pay.unconfirmed",
} as const;

type Result = { kind: "verifying" } | { kind: "success" | "processing"; payment: PaymentView } | { kind: "unconfirmed" };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function PaymentSuccess() {
  const [result, setResult] = useState<Result>({ kind: "verifying" });
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  const focusTarget = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    let alive = true;
    const cartId = cartIdFrom(window.location.search);
    currentSession()
      .then((s) => alive && setSignedIn(s !== null))
      .catch((e: unknown) => {
        console.error("payment success: session", e);
        if (alive) setSignedIn(false);
      });
    void (async () => {
      await sleep(VERIFY_DELAY_MS);
      // Without a cart id only the signed-in buyer's latest payment can be looked up; a
      // signed-out visitor has none to ask about (and the refused request would log an error).
      if (!cartId && !signedInHint()) {
        if (alive) setResult({ kind: "unconfirmed" });
        return;
      }
      const started = Date.now();
      while (alive) {
        let payment: PaymentView;
        try {
          payment = await (cartId ? GET("/api/payments/by-cart/{cart_id}", { path: { cart_id: cartId } }) : GET("/api/payments/latest"));
        } catch (e) {
          // Spec §8: payment verification errors are logged only.
          console.error("payment verification", e);
          if (alive) setResult({ kind: "unconfirmed" });
          return;
        }
        if (!alive) return;
        const step = verifyStep(payment.status, Date.now() - started);
        if (step === "failed") return go(failedPath(cartId ?? payment.cartId));
        if (step === "poll") {
          await sleep(POLL_INTERVAL_MS);
          continue;
        }
        setResult({ kind: step, payment });
        return;
      }
    })();
    return () => {
      alive = false;
    };
  }, []);

  // The outcome is the page's one heading (the shell's "Confirming Your Payment" would
  // otherwise stay above it), and focus moves to it so it is read out.
  const settled = result.kind !== "verifying" && signedIn !== null;
  useEffect(() => {
    if (!settled) return;
    const heading = document.getElementById("app-title");
    if (heading) {
      heading.textContent = t(HEADINGS[result.kind]);
      heading.tabIndex = -1;
      heading.focus();
    } else focusTarget.current?.focus();
  }, [settled, result.kind]);

  if (!settled) {
    return (
      <div className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <p className="loading__text">{t("client.pay.verifyingText")}</p>
      </div>
    );
  }

  const member = signedIn === true;
  if (result.kind === "success") {
    return (
      <div className="client-pay">
        <Icon kind="success" />
        <p className="status-page__text" tabIndex={-1} ref={focusTarget}>
          {t("client.pay.thanks")}
          {member ? null : ` ${t("client.pay.signInToSee")}`}
        </p>
        <Summary payment={result.payment} />
        <Actions signedIn={member} />
      </div>
    );
  }

  if (result.kind === "processing") {
    return (
      <div className="client-pay">
        <Icon kind="processing" />
        <p className="status-page__text" tabIndex={-1} ref={focusTarget}>
          {t("client.pay.processingText")}
        </p>
        <Summary payment={result.payment} />
        <Actions signedIn={member} />
      </div>
    );
  }

  return (
    <div className="client-pay">
      <Icon kind="unconfirmed" />
      <p className="status-page__text" tabIndex={-1} ref={focusTarget}>
        {member ? t("client.pay.unconfirmedMember") : t("client.pay.unconfirmedGuest")} {t("client.pay.questions")}
      </p>
      <Actions signedIn={member} />
    </div>
  );
}

export const mount = mountIsland(PaymentSuccess, ["payment"]);
