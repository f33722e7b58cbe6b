// The dashboard's session credits: available, purchased and completed, the next credits to
// expire and the last payment.
import type { AccountView } from "../api/types";
import { shortDate } from "../lib/format";
import { t } from "../lib/i18n";
import { rich } from "../lib/rich";

export function CreditsCard({ account }: { account: AccountView }) {
  return (
    <section className="panel client-card" aria-labelledby="client-credits-title">
      <h2 className="panel__title" id="client-credits-title">
        {t("client.credits.title")}
      </h2>
      <dl className="client-credits">
        <div className="stat client-stat--highlight">
          <dt className="stat__label">{t("client.credits.available")}</dt>
          <dd className="stat__value">{account.availableCredits}</dd>
        </div>
        <div className="stat">
          <dt className="stat__label">{t("client.credits.total")}</dt>
          <dd className="stat__value">{account.totalCredits}</dd>
        </div>
        <div className="stat">
          <dt className="stat__label">{t("client.credits.completed")}</dt>
          <dd className="stat__value">{account.sessionsCompleted}</dd>
        </div>
      </dl>
      {account.nextExpiry ? (
        <p className="client-credits__last client-credits__expiry">
          {rich("client.credits.expire", {
            count: account.nextExpiry.credits,
            date: shortDate(account.nextExpiry.expiresOn),
            time: (c) => <time dateTime={account.nextExpiry?.expiresOn}>{c}</time>,
          })}
        </p>
      ) : null}
      {account.lastPaymentDate ? (
        <p className="client-credits__last">
          {rich("client.credits.lastPayment", { date: shortDate(account.lastPaymentDate), time: (c) => <time dateTime={account.lastPaymentDate ?? undefined}>{c}</time> })}
        </p>
      ) : null}
    </section>
  );
}
