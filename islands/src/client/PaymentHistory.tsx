// The dashboard's payment history, which the client may show or hide (the only change a client
// makes, spec §4): the last ten payments and refunds, each with its receipt.
import { useEffect, useId, useRef, useState } from "react";
import { toast } from "../lib/toast";
import type { AccountView, PaymentRecordView } from "../api/types";
import { PUT } from "../lib/api";
import { receiptPath } from "../lib/client-views";
import { credits, formatMoney, sessions, shortDate } from "../lib/format";
import { t } from "../lib/i18n";
import { methodLabel } from "../lib/payment-methods";

function PaymentRow({ payment }: { payment: PaymentRecordView }) {
  const refund = payment.kind === "refund";
  return (
    <li className="client-payment">
      <div className="client-payment__main">
        <span className="client-payment__amount">
          {refund ? t("client.payments.refundPrefix") : null}
          {formatMoney(payment.amount)}
        </span>
        <span className="client-payment__sessions">
          {refund ? t("client.payments.creditsRemoved", { credits: credits(payment.sessionsPurchased) }) : sessions(payment.sessionsPurchased)}
        </span>
      </div>
      <div className="client-payment__meta">
        <time dateTime={payment.paymentDate}>{shortDate(payment.paymentDate)}</time>
        <span className="client-payment__method">{methodLabel(payment.paymentMethod)}</span>
        {payment.referenceNumber ? <span className="badge badge--outline client-payment__ref">#{payment.referenceNumber}</span> : null}
        <a className="client-payment__receipt" href={receiptPath(payment)}>
          {t("client.payments.receipt")}
          <span className="visually-hidden">
            {t(refund ? "client.payments.receiptOfRefunded" : "client.payments.receiptOfPayment", { date: shortDate(payment.paymentDate) })}
          </span>
        </a>
      </div>
    </li>
  );
}

export function PaymentHistory(props: { account: AccountView; payments: PaymentRecordView[]; onAccount: (a: AccountView) => void }) {
  const checkboxId = useId();
  const shown = props.account.showPaymentHistory;
  // The checkbox answers at once; the account (and so the card) changes only when the server
  // accepted the change, and the checkbox rolls back otherwise (spec §4).
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  // After a switch between the two cards, focus goes to the control of the new one.
  const moveFocus = useRef(false);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const hideRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (shown ? hideRef.current : checkboxRef.current)?.focus();
  }, [shown]);

  const change = async (show: boolean) => {
    setBusy(true);
    try {
      const account = await PUT("/api/dashboard/payment-history", { show });
      moveFocus.current = account.showPaymentHistory !== shown;
      setChecked(account.showPaymentHistory);
      props.onAccount(account);
    } catch (e) {
      console.error("payment history preference", e);
      toast.error(t("common.error.title"), { description: t("client.payments.prefFailed") });
      setChecked(!show);
    } finally {
      setBusy(false);
    }
  };

  if (!shown) {
    return (
      <section className="panel panel--dashed client-card client-card--wide" aria-labelledby="client-payments-title">
        <h2 className="visually-hidden" id="client-payments-title">
          {t("client.payments.title")}
        </h2>
        <div className="client-check">
          <input
            ref={checkboxRef}
            className="client-check__input"
            id={checkboxId}
            type="checkbox"
            checked={checked}
            disabled={busy}
            aria-describedby={`${checkboxId}-hint`}
            onChange={(e) => {
              setChecked(e.target.checked);
              if (e.target.checked) void change(true);
            }}
          />
          <label className="client-check__label" htmlFor={checkboxId}>
            {t("client.payments.show")}
          </label>
        </div>
        <p className="client-check__hint" id={`${checkboxId}-hint`}>
          {t("client.payments.hidden")}
        </p>
      </section>
    );
  }

  return (
    <section className="panel client-card client-card--wide" aria-labelledby="client-payments-title">
      <div className="client-panel-head">
        <h2 className="panel__title" id="client-payments-title">
          {t("client.payments.title")}
        </h2>
        <button
          ref={hideRef}
          type="button"
          className="link-button client-hide"
          disabled={busy}
          aria-label={t("client.payments.hideLabel")}
          onClick={() => {
            setChecked(false);
            void change(false);
          }}
        >
          {busy ? t("client.payments.hiding") : t("client.payments.hide")}
        </button>
      </div>
      {props.payments.length > 0 ? (
        <ul className="client-payments">
          {props.payments.slice(0, 10).map((p) => (
            <PaymentRow key={p.id} payment={p} />
          ))}
        </ul>
      ) : (
        <div className="empty">
          <p className="empty__title">{t("client.payments.none")}</p>
        </div>
      )}
    </section>
  );
}
