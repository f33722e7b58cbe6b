// The dashboard's session credits: available, purchased and completed, the next credits to
// expire and the last payment.
import type { AccountView } from "../api/types";
import { shortDate } from "../lib/format";

export function CreditsCard({ account }: { account: AccountView }) {
  return (
    <section className="panel client-card" aria-labelledby="client-credits-title">
      <h2 className="panel__title" id="client-credits-title">
        Session Credits
      </h2>
      <dl className="client-credits">
        <div className="stat client-stat--highlight">
          <dt className="stat__label">Available Credits</dt>
          <dd className="stat__value">{account.availableCredits}</dd>
        </div>
        <div className="stat">
          <dt className="stat__label">Total Purchased</dt>
          <dd className="stat__value">{account.totalCredits}</dd>
        </div>
        <div className="stat">
          <dt className="stat__label">Sessions Completed</dt>
          <dd className="stat__value">{account.sessionsCompleted}</dd>
        </div>
      </dl>
      {account.nextExpiry ? (
        <p className="client-credits__last client-credits__expiry">
          {account.nextExpiry.credits === 1 ? "1 credit expires" : `${account.nextExpiry.credits} credits expire`} on{" "}
          <time dateTime={account.nextExpiry.expiresOn}>{shortDate(account.nextExpiry.expiresOn)}</time>
        </p>
      ) : null}
      {account.lastPaymentDate ? (
        <p className="client-credits__last">
          Last payment: <time dateTime={account.lastPaymentDate}>{shortDate(account.lastPaymentDate)}</time>
        </p>
      ) : null}
    </section>
  );
}
