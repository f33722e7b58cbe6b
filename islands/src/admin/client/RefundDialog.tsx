// Refund a payment (issue 14 point 3). The dialog first asks the API what is left to refund
// (GET /api/admin/payments/{id}/refund): the payment's unused credits and the money not yet
// refunded, and shows both before the admin confirms (the form: ./RefundForm). An online payment's refund goes to
// the provider that took it (PayTabs or Paymob); an offline one is recorded as done. The credits leave at once.
import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "../../lib/toast";
import type { ClientPaymentView, Refundable, RefundRow } from "../../api/types";
import { ApiError, GET } from "../../lib/api";
import { formatMoney, sessions, shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { refundProvider } from "../../lib/payment-methods";
import { rich } from "../../lib/rich";
import { Spinner } from "../../lib/ui";
import { Modal } from "../dialog";
import { RefundForm, credits } from "./RefundForm";

/** The toast for the refund as the API answered it. */
function announce(row: RefundRow) {
  const money = formatMoney({ minor: row.amount, currency: row.currency });
  const removed = row.credits > 0 ? ` ${t("adminClient.refund.removed", { credits: credits(row.credits) })}` : "";
  const provider = refundProvider(row.method);
  if (row.status === "failed") {
    toast.error(t("adminClient.refund.declined"), { description: t("adminClient.refund.declinedText", { provider }) });
  } else if (row.status === "pending") {
    toast.success(t("adminClient.refund.sent", { provider }), {
      description: t("adminClient.refund.sentText", { money, removed, provider }),
    });
  } else {
    toast.success(provider ? t("adminClient.refund.completed") : t("adminClient.refund.recordedDone"), {
      description: t("adminClient.refund.doneText", { money, removed }),
    });
  }
}

export function RefundDialog(props: { payment: ClientPaymentView; clientName: string; onClose: () => void; onRefunded: () => void }) {
  const { payment } = props;
  const id = useId();
  const [info, setInfo] = useState<Refundable | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setLoadError(null);
    setInfo(null);
    try {
      setInfo(await GET("/api/admin/payments/{id}/refund", { path: { id: payment.id } }));
    } catch (err) {
      setLoadError(err instanceof ApiError ? err.message : t("adminClient.refund.loadFailed"));
    }
  }, [payment.id]);

  useEffect(() => {
    void load();
  }, [load]);

  const provider = info ? refundProvider(info.method) : null;
  const online = provider !== null;
  const nothingLeft = info !== null && info.unusedCredits === 0 && info.maxAmount.minor === 0;

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title={t("adminClient.refund.title")}
      description={rich(payment.receiptNumber ? "adminClient.refund.textReceipt" : "adminClient.refund.text", {
        money: formatMoney(payment.amount),
        name: props.clientName,
        date: shortDate(payment.paymentDate),
        sessions: sessions(payment.sessionsPurchased),
        receipt: payment.receiptNumber ?? "",
        nowrap: (c) => <span className="nowrap">{c}</span>,
      })}
    >
      {loadError ? (
        <div className="notice notice--error" role="alert">
          {loadError}{" "}
          <button type="button" className="link-button" onClick={() => void load()}>
            {t("common.tryAgain")}
          </button>
        </div>
      ) : info === null ? (
        <Spinner label={t("adminClient.refund.loading")} />
      ) : (
        <>
          <Figures info={info} />
          <p className="admin-refund__method">
            {online ? t("adminClient.refund.online", { provider }) : t("adminClient.refund.offline")}{" "}
            {online ? t("adminClient.refund.creditsLeaveOnline", { provider }) : t("adminClient.refund.creditsLeave")}
          </p>
          {nothingLeft ? (
            <>
              <p className="notice" role="status">
                {t("adminClient.refund.nothingLeft")}
              </p>
              <div className="dialog-actions">
                <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose}>
                  {t("common.close")}
                </button>
              </div>
            </>
          ) : (
            <RefundForm
              id={id}
              payment={payment}
              info={info}
              onBusy={setBusy}
              onCancel={props.onClose}
              onDone={(row) => {
                announce(row);
                props.onRefunded();
                props.onClose();
              }}
            />
          )}
        </>
      )}
    </Modal>
  );
}

function Figures({ info }: { info: Refundable }) {
  return (
    <dl className="admin-refund__figures">
      <div>
        <dt>{t("adminClient.refund.unused")}</dt>
        <dd>
          {info.unusedCredits} <span className="admin-muted">{t("adminClient.refund.of", { total: info.sessionsPurchased })}</span>
        </dd>
      </div>
      <div>
        <dt>{t("adminClient.refund.left")}</dt>
        <dd>{formatMoney(info.maxAmount)}</dd>
      </div>
      <div>
        <dt>{t("adminClient.refund.paid")}</dt>
        <dd>{formatMoney(info.paid)}</dd>
      </div>
      <div>
        <dt>{t("adminClient.refund.already")}</dt>
        <dd>{formatMoney(info.refunded)}</dd>
      </div>
    </dl>
  );
}
