// The dashboard's session credits: available, purchased and completed, the next credits to
// expire, the credits a company pays for (issue 23) and the last payment.
import type { AccountView } from "../api/types";
import { shortDate } from "../lib/format";
import { t } from "../lib/i18n";
import { rich } from "../lib/rich";
import type { SponsoredCredits } from "../sponsors/types";

/** GET /api/dashboard `sponsored`: the engagements that gave the client credits. */
export function sponsoredOf(view: { sponsored?: SponsoredCredits[] }): SponsoredCredits[] {
  return view.sponsored ?? [];
}

/** "6 of your credits come from Nile Pharma (Leadership programme 2027); 5 left." */
export function sponsoredText(s: SponsoredCredits): string {
  return t("client.credits.sponsored", { credits: s.credits, sponsor: s.sponsor, engagement: s.engagement, remaining: s.remaining });
}

export function CreditsCard({ account, sponsored = [] }: { account: AccountView; sponsored?: SponsoredCredits[] }) {
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
      {sponsored.map((s) => (
        <p className="client-credits__last client-credits__sponsored" key={`${s.sponsor}|${s.engagement}`}>
          {sponsoredText(s)}
        </p>
      ))}
      {account.lastPaymentDate ? (
        <p className="client-credits__last">
          {rich("client.credits.lastPayment", { date: shortDate(account.lastPaymentDate), time: (c) => <time dateTime={account.lastPaymentDate ?? undefined}>{c}</time> })}
        </p>
      ) : null}
    </section>
  );
}
