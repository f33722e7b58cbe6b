// The refund dialog's form: credits to remove, an amount to refund (empty at first, with the
// payment's suggestion a click away) and a reason. The confirm button says what it will do.
import { useEffect, useMemo, useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "../../lib/toast";
import type { ClientPaymentView, Refundable, RefundRow } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { credits, formatMoney } from "../../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
import { refundProvider } from "../../lib/payment-methods";
import { type RefundOutput, checkRefund, refundAction, refundDefaults, refundSchema, refundSuggestion } from "../client-page";
import { ErrorDetails } from "../dialog";
import type { RefundForm as Values } from "./views";

export { credits };
const Input = FormField<Values>;

export function RefundForm(props: {
  id: string;
  payment: ClientPaymentView;
  info: Refundable;
  onBusy: (busy: boolean) => void;
  onDone: (row: RefundRow) => void;
  onCancel: () => void;
}) {
  const { id, info } = props;
  const schema = useMemo(() => refundSchema(info), [info]);
  const form = useZodForm<Values, RefundOutput>({ schema, defaultValues: refundDefaults });
  const busy = form.formState.isSubmitting;
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const values = useWatch({ control: form.control }) as Values;
  const provider = refundProvider(info.method);
  const online = provider !== null;
  const checked = checkRefund({ ...refundDefaults(), ...values }, info);
  const action = checked.ok ? refundAction(checked.payload.credits, { minor: checked.minor, currency: info.maxAmount.currency }) : t("adminClient.refund.action");

  const { onBusy } = props;
  useEffect(() => onBusy(busy), [busy, onBusy]);
  // The keyboard starts on the first field (the dialog opened on its close button while the
  // figures loaded).
  useEffect(() => form.setFocus("credits"), [form]);

  async function submit({ payload }: RefundOutput) {
    setFailure(null);
    try {
      props.onDone(await POST("/api/admin/payments/{id}/refund", payload, { path: { id: props.payment.id } }));
    } catch (err) {
      const message = err instanceof ApiError ? err.message : t("adminClient.refund.failed");
      const fields = err instanceof ApiError ? err.fields : {};
      showServerErrors(form, fields, ["credits", "amount", "reason"]);
      setFailure({ message, fields });
      toast.error(t("common.error.title"), { description: message });
    }
  }

  return (
    <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
      {failure ? <ErrorDetails
          message={failure.message}
          fields={failure.fields}
          labels={{ credits: t("adminClient.refund.credits"), amount: t("adminClient.refund.amount"), reason: t("adminClient.reason") }}
        /> : null}
      <div className="form__row">
        <Input name="credits" id={`${id}-credits`} label={t("adminClient.refund.credits")} hint={t("adminClient.refund.creditsHint", { most: info.unusedCredits })}>
          <input className="input" type="number" inputMode="numeric" min={0} max={info.unusedCredits} step={1} />
        </Input>
        <Input
          name="amount"
          id={`${id}-amount`}
          label={t("adminClient.refund.amountIn", { currency: info.maxAmount.currency })}
          hint={t("adminClient.refund.amountHint", { most: formatMoney(info.maxAmount), suggested: formatMoney(info.suggestedAmount) })}
        >
          <input className="input" type="number" inputMode="decimal" min={0} step={0.01} />
        </Input>
      </div>
      {info.unusedCredits > 0 || info.suggestedAmount.minor > 0 ? (
        <p className="admin-refund__suggest">
          {/* Fills in the suggestion; the admin still confirms with the Refund button. */}
          <button type="button" className="btn btn--outline btn--sm" onClick={() => form.reset({ ...form.getValues(), ...refundSuggestion(info) })}>
            {t("adminClient.refund.useSuggested")}
          </button>{" "}
          <span className="admin-muted">{t("adminClient.refund.suggested", { credits: credits(info.unusedCredits), money: formatMoney(info.suggestedAmount) })}</span>
        </p>
      ) : null}
      <Input name="reason" id={`${id}-reason`} label={t("adminClient.refund.reason")} hint={t("adminClient.refund.reasonHint")}>
        <textarea className="input admin-textarea" rows={2} maxLength={500} />
      </Input>
      <div className="dialog-actions">
        <button type="button" className="btn btn--outline btn--sm" onClick={props.onCancel} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="btn btn--sm admin-btn--danger" disabled={busy} aria-busy={busy}>
          {busy ? (online ? t("adminClient.refund.sending", { provider }) : t("adminClient.refund.recording")) : action}
        </button>
      </div>
    </Form>
  );
}
