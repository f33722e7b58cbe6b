// The parts of /book-session: the credits bar, the embedded scheduling page with its steps, the
// note that follows a booking while it is confirmed, and the page without credits.
import { useId } from "react";
import type { BookSessionView } from "../api/types";
import { webUrl } from "../lib/web";
import { localPath, t } from "../lib/i18n";
import { rich } from "../lib/rich";

export function CreditsBar({ credits, back }: { credits: number; back: boolean }) {
  return (
    <div className="client-book-credits">
      <p className="client-book-credits__text">
        <span className="client-book-credits__label">{t("client.book.available")}</span>
        <span className="client-book-credits__value">{credits}</span>
      </p>
      {back ? (
        <a className="link-arrow link-arrow--back" href={localPath("/dashboard")}>
          {t("client.backToDashboard")}
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
        {t("client.book.title")}
      </h2>
      <ol className="client-steps" role="list">
        <li>{t("client.book.step1")}</li>
        <li>{t("client.book.step2")}</li>
        <li>{t("client.book.step3")}</li>
      </ol>
      {url ? (
        <>
          <div className="client-scheduler">
            <iframe className="client-scheduler__frame" title={t("client.book.frame")} src={url} width="100%" height="760" loading="lazy" />
          </div>
          <div className="client-book-actions">
            <a className="btn btn--outline" href={url} target="_blank" rel="noopener" aria-describedby={note}>
              {t("client.book.openWindow")}
            </a>
            <span className="visually-hidden" id={note}>
              {view.schedulerName ? t("client.book.opensNamed", { name: view.schedulerName }) : t("client.book.opensScheduling")}
            </span>
          </div>
        </>
      ) : (
        <p className="notice">{t("client.book.unavailable")}</p>
      )}
      <p className="client-book-note">{t("client.book.note")}</p>
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
          <span className="spinner spinner--sm" aria-hidden="true" /> {t("client.book.confirming")}
        </p>
      ) : null}
      {state?.kind === "confirmed" ? (
        <p className="client-book-status__text">
          {t("client.book.confirmed", { count: state.credits })} <a href={localPath("/dashboard")}>{t("client.book.seeIt")}</a>
        </p>
      ) : null}
      {state?.kind === "slow" ? (
        <p className="client-book-status__text">
          {rich("client.book.slow", { link: (c) => <a href={localPath("/dashboard")}>{c}</a> })}
        </p>
      ) : null}
    </div>
  );
}

export function NoCredits() {
  return (
    <section className="panel panel--dashed client-book-empty" aria-labelledby="client-book-empty-title">
      <h2 className="client-book-empty__title" id="client-book-empty-title">
        {t("client.book.none")}
      </h2>
      <p className="client-book-empty__text">{t("client.book.noneText")}</p>
      <div className="client-book-actions client-book-actions--center">
        <a className="btn btn--gold" href={localPath("/pricing")}>
          {t("client.buyCredits")}
        </a>
        <a className="btn btn--outline" href={localPath("/dashboard")}>
          {t("client.backToDashboard")}
        </a>
      </div>
    </section>
  );
}
