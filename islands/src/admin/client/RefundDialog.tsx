// Refund a payment (issue 14 point 3). The dialog first asks the API what is left to refund
// (GET /api/admin/payments/{id}/refund): the payment's unused credits and the money not yet
// refunded, and shows both before the admin confirms (the form: ./RefundForm). An online payment's refund goes to
// PayTabs; an offline one is recorded as done. The credits leave at once.
import { useCallback, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import type { ClientPaymentView, Refundable, RefundRow } from "../../api/types";
import { ApiError, GET } from "../../lib/api";
import { formatMoney, shortDate } from "../../lib/format";
import { Spinner } from "../../lib/ui";
import { Modal } from "../dialog";
import { RefundForm, credits } from "./RefundForm";

/** The toast for the refund as the API answered it. */
function announce(row: RefundRow) {
  const money = formatMoney({ minor: row.amount, currency: row.currency });
  const removed = row.credits > 0 ? ` ${credits(row.credits)} removed.` : "";
  if (row.status === "failed") {
    toast.error("Refund declined", { description: "PayTabs declined the refund. Nothing was refunded and the credits are back in the client's account." });
  } else if (row.status === "pending") {
    toast.success("Refund sent to PayTabs", { description: `${money} is waiting for PayTabs to confirm.${removed}` });
  } else {
    toast.success(row.method === "paytabs" ? "Refund completed" : "Refund recorded", { description: `${money} refunded.${removed} The client gets an email.` });
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
      setLoadError(err instanceof ApiError ? err.message : "Failed to load what can be refunded. Please try again.");
    }
  }, [payment.id]);

  useEffect(() => {
    void load();
  }, [load]);

  const online = info?.method === "paytabs";
  const nothingLeft = info !== null && info.unusedCredits === 0 && info.maxAmount.minor === 0;

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title="Refund this payment"
      description={
        <>
          {formatMoney(payment.amount)} paid by {props.clientName} on {shortDate(payment.paymentDate)} for {payment.sessionsPurchased}{" "}
          {payment.sessionsPurchased === 1 ? "session" : "sessions"}
          {payment.receiptNumber ? (
            <>
              {" "}
              (receipt <span className="nowrap">{payment.receiptNumber}</span>)
            </>
          ) : null}
          .
        </>
      }
    >
      {loadError ? (
        <div className="notice notice--error" role="alert">
          {loadError}{" "}
          <button type="button" className="link-button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : info === null ? (
        <Spinner label="Loading what can be refunded…" />
      ) : (
        <>
          <Figures info={info} />
          <p className="admin-refund__method">
            {online
              ? "Paid online: the refund is sent to PayTabs, which returns the money to the client's card."
              : "Paid offline: return the money yourself (cash, bank transfer…), then record the refund here."}{" "}
            The credits you remove leave the client&apos;s account at once
            {online ? " and come back if PayTabs declines." : "."}
          </p>
          {nothingLeft ? (
            <>
              <p className="notice" role="status">
                Nothing is left to refund: this payment&apos;s credits are used or already removed, and its amount has been refunded.
              </p>
              <div className="dialog-actions">
                <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose}>
                  Close
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
        <dt>Unused credits</dt>
        <dd>
          {info.unusedCredits} <span className="admin-muted">of {info.sessionsPurchased}</span>
        </dd>
      </div>
      <div>
        <dt>Money left to refund</dt>
        <dd>{formatMoney(info.maxAmount)}</dd>
      </div>
      <div>
        <dt>Paid</dt>
        <dd>{formatMoney(info.paid)}</dd>
      </div>
      <div>
        <dt>Already refunded</dt>
        <dd>{formatMoney(info.refunded)}</dd>
      </div>
    </dl>
  );
}
