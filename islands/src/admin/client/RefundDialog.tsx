// Refund a payment (issue 14 point 3). The dialog first asks the API what is left to refund
// (GET /api/admin/payments/{id}/refund): the payment's unused credits and the money not yet
// refunded, and shows both before the admin confirms. An online payment's refund goes to
// PayTabs; an offline one is recorded as done. The credits leave at once.
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import type { ClientPaymentView, Complete, Refundable, RefundPaymentBody, RefundRow } from "../../api/types";
import { ApiError, GET, POST } from "../../lib/api";
import { formatMoney, shortDate } from "../../lib/format";
import { Field, Spinner } from "../../lib/ui";
import { checkRefund, refundAction, refundDefaults, refundSuggestion } from "../client-page";
import { ErrorDetails, Modal } from "../dialog";
import { useForm } from "../form";
import { fieldErrors } from "../helpers";

const LABELS = { credits: "Credits to remove", amount: "Amount to refund", reason: "Reason" };
const credits = (n: number) => `${n} ${n === 1 ? "credit" : "credits"}`;

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
  const form = useForm(() => ({ credits: "", amount: "", reason: "" }));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const firstInput = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    setLoadError(null);
    setInfo(null);
    try {
      const r = await GET("/api/admin/payments/{id}/refund", { path: { id: payment.id } });
      form.reset(refundDefaults());
      setInfo(r);
    } catch (err) {
      setLoadError(err instanceof ApiError ? err.message : "Failed to load what can be refunded. Please try again.");
    }
    // `form.reset` only sets state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [payment.id]);

  useEffect(() => {
    void load();
  }, [load]);

  // Once the figures are in, the keyboard starts on the first field (the dialog opened on its
  // close button while they loaded).
  useEffect(() => {
    if (info) firstInput.current?.focus();
  }, [info]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!info) return;
    setFailure(null);
    const checked = checkRefund(form.values, info);
    if (!checked.ok) return form.setErrors(checked.errors);
    setBusy(true);
    try {
      const body: Complete<RefundPaymentBody, "reason"> = checked.payload;
      const row = await POST("/api/admin/payments/{id}/refund", body, { path: { id: payment.id } });
      announce(row);
      props.onRefunded();
      props.onClose();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : "Failed to refund the payment. Please try again.";
      const fields = err instanceof ApiError ? err.fields : {};
      form.setErrors(fieldErrors(fields, ["credits", "amount", "reason"] as const));
      setFailure({ message, fields });
      toast.error("Error", { description: message });
    } finally {
      setBusy(false);
    }
  }

  /** Fills in the suggestion; the admin still confirms with the Refund button. */
  function fill(values: { credits: string; amount: string }) {
    form.reset({ ...form.values, ...values });
  }

  const online = info?.method === "paytabs";
  const nothingLeft = info !== null && info.unusedCredits === 0 && info.maxAmount.minor === 0;
  const checked = info ? checkRefund(form.values, info) : null;
  const action = checked?.ok ? refundAction(checked.payload.credits, { minor: checked.minor, currency: info?.maxAmount.currency ?? "EGP" }) : "Refund";

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
            <form className="form admin-form" onSubmit={submit} noValidate aria-busy={busy}>
              {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={LABELS} /> : null}
              <div className="form__row">
                <Field id={`${id}-credits`} label="Credits to remove" error={form.errors.credits} hint={`0 to ${info.unusedCredits}.`}>
                  <input
                    ref={firstInput}
                    className="input"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={info.unusedCredits}
                    step={1}
                    {...form.bind("credits", `${id}-credits`)}
                  />
                </Field>
                <Field
                  id={`${id}-amount`}
                  label={`Amount to refund (${info.maxAmount.currency})`}
                  error={form.errors.amount}
                  hint={`Up to ${formatMoney(info.maxAmount)}. Suggested: ${formatMoney(info.suggestedAmount)}, the price of the unused credits.`}
                >
                  <input className="input" type="number" inputMode="decimal" min={0} step={0.01} {...form.bind("amount", `${id}-amount`)} />
                </Field>
              </div>
              {info.unusedCredits > 0 || info.suggestedAmount.minor > 0 ? (
                <p className="admin-refund__suggest">
                  <button type="button" className="btn btn--outline btn--sm" onClick={() => fill(refundSuggestion(info))}>
                    Use suggested amount
                  </button>{" "}
                  <span className="admin-muted">
                    {credits(info.unusedCredits)} and {formatMoney(info.suggestedAmount)}
                  </span>
                </p>
              ) : null}
              <Field id={`${id}-reason`} label="Reason (optional)" error={form.errors.reason} hint="Kept with the refund.">
                <textarea className="input admin-textarea" rows={2} maxLength={500} {...form.bind("reason", `${id}-reason`)} />
              </Field>
              <div className="dialog-actions">
                <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
                  Cancel
                </button>
                <button type="submit" className="btn btn--sm admin-btn--danger" disabled={busy} aria-busy={busy}>
                  {busy ? (online ? "Sending to PayTabs..." : "Recording...") : action}
                </button>
              </div>
            </form>
          )}
        </>
      )}
    </Modal>
  );
}
