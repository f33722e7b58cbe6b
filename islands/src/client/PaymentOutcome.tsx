// The parts of /payment/success's outcome: its icon, the order's summary and the next steps
// (the dashboard for a member, signing in for a guest buyer).
import type { PaymentView } from "../api/types";
import { packageQuantity, packageQuantityLabel } from "../lib/payment-views";
import { formatMoney } from "../lib/format";
import { localPath, t } from "../lib/i18n";

export function Icon({ kind }: { kind: "success" | "processing" | "unconfirmed" }) {
  return (
    <span className={`status-page__icon client-pay__icon client-pay__icon--${kind}`}>
      <svg className="icon icon--xl" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        {kind === "success" ? (
          <>
            <circle cx="12" cy="12" r="9" />
            <path d="m8 12.5 2.75 2.75L16 10" />
          </>
        ) : (
          <>
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7v5l3 2" />
          </>
        )}
      </svg>
    </span>
  );
}

export function Summary({ payment }: { payment: PaymentView }) {
  return (
    <dl className="status-page__box client-pay-summary">
      <div className="client-pay-summary__row">
        <dt>{t("client.pay.package")}</dt>
        <dd>{payment.packageName}</dd>
      </div>
      <div className="client-pay-summary__row">
        <dt>{packageQuantityLabel(payment.packageType)}</dt>
        <dd>{packageQuantity(payment.packageType, payment.sessions)}</dd>
      </div>
      <div className="client-pay-summary__row">
        <dt>{t("client.pay.amount")}</dt>
        <dd>{formatMoney(payment.amount)}</dd>
      </div>
      <div className="client-pay-summary__row">
        <dt>{t("client.pay.orderId")}</dt>
        <dd className="client-pay-summary__code">{payment.orderId}</dd>
      </div>
    </dl>
  );
}

export function Actions({ signedIn }: { signedIn: boolean }) {
  return signedIn ? (
    <div className="status-page__actions">
      <a className="btn btn--gold" href={localPath("/dashboard")}>
        {t("client.pay.goDashboard")}
      </a>
      <a className="btn btn--outline" href={localPath("/book-session")}>
        {t("client.pay.bookFirst")}
      </a>
    </div>
  ) : (
    <div className="status-page__actions">
      <a className="btn btn--gold" href={localPath("/auth")}>
        {t("client.pay.signIn")}
      </a>
      <a className="btn btn--outline" href={localPath("/contact")}>
        {t("client.pay.contact")}
      </a>
    </div>
  );
}
