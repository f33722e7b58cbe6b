// The form of /admin/add-payment: a client's offline payment (POST /api/admin/payments); the
// sessions purchased are added to the client's credits. Its rules (./validation, with zod) load
// on the form's first focus or hover.
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "../lib/toast";
import type { ClientRow } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { credits, sessions, shortDate } from "../lib/format";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "../lib/form";
import { localPath, t } from "../lib/i18n";
import {
  ADD_PAYMENT_FIELDS,
  type AddPaymentForm as Values,
  type AddPaymentPayload,
  PAYMENT_METHODS,
  addPaymentDefaults,
  addPaymentMessage,
  requiredFieldsMessage,
} from "./fields";
import { label } from "./helpers";
import { ValidityField } from "./ValidityField";

const rules = lazySchema(() => import("./add-payment-rules").then((m) => m.addPaymentSchema));
const Input = FormField<Values>;

export function AddPaymentForm({ clients, onClients }: { clients: ClientRow[]; onClients: (clients: ClientRow[]) => void }) {
  const form = useZodForm<Values, AddPaymentPayload>({ schema: rules, defaultValues: () => addPaymentDefaults() });
  const busy = form.formState.isSubmitting;
  // A message about the whole form, above it; stale once the admin edits the form.
  const [formError, setFormError] = useState<string | null>(null);
  const clientId = useWatch({ control: form.control, name: "clientId" });
  const client = clients.find((c) => c.user_id === clientId);

  function refused(errors: Partial<Record<keyof Values, { message?: string }>>) {
    const messages = Object.fromEntries(Object.entries(errors).map(([k, e]) => [k, e?.message])) as Partial<Record<keyof Values, string>>;
    const message = addPaymentMessage(messages) ?? null;
    setFormError(message);
    if (message === requiredFieldsMessage()) toast.error(t("common.error.title"), { description: message });
  }

  async function submit(payload: AddPaymentPayload) {
    setFormError(null);
    const name = client?.full_name ?? t("admin.theClientCap");
    try {
      const recorded = await POST("/api/admin/payments", payload);
      // The credits now available, from the refreshed list (or worked out if it fails).
      let available = (client?.available_credits ?? 0) + payload.sessionsPurchased;
      try {
        const fresh = await GET("/api/admin/clients");
        onClients(fresh);
        available = fresh.find((c) => c.user_id === payload.clientId)?.available_credits ?? available;
      } catch {
        // Keep the worked-out figure.
      }
      toast.success(t("admin.pay.added"), {
        description: t("admin.pay.addedText", {
          sessions: sessions(payload.sessionsPurchased),
          name,
          date: shortDate(recorded.expiresOn),
          credits: credits(available),
        }),
      });
      form.reset();
    } catch (err) {
      const server = err instanceof ApiError ? err.message : "";
      if (err instanceof ApiError) showServerErrors(form, err.fields, ADD_PAYMENT_FIELDS);
      setFormError(server || t("admin.pay.failed"));
      toast.error(t("common.error.title"), { description: server ? t("admin.pay.failedWith", { message: server }) : t("admin.pay.failed") });
    }
  }

  return (
    <>
      {formError ? (
        <div className="notice notice--error" role="alert">
          {formError}
        </div>
      ) : null}
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={refused} onChange={() => setFormError(null)} aria-busy={busy}>
        <Input name="clientId" id="ap-client" label={t("admin.col.client")} describedBy={client ? "ap-client-credits" : undefined}>
          <select className="input">
            <option value="">{t("admin.selectClient")}</option>
            {clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email})
              </option>
            ))}
          </select>
        </Input>
        {client ? (
          <p className="field__hint admin-hint" id="ap-client-credits">
            {t("admin.pay.clientCredits", { name: client.full_name, credits: credits(client.available_credits), total: client.total_credits })}
          </p>
        ) : null}
        <div className="form__row">
          <Input name="amount" id="ap-amount" label={t("admin.pay.amount")} hint={t("admin.pay.amountHint")}>
            <input className="input" type="number" inputMode="decimal" min={0} step={0.01} />
          </Input>
          <Input name="sessionsPurchased" id="ap-sessions" label={t("admin.pay.sessions")}>
            <input className="input" type="number" inputMode="numeric" min={1} step={1} />
          </Input>
        </div>
        <div className="form__row">
          <Input name="paymentDate" id="ap-date" label={t("admin.field.paymentDate")}>
            <input className="input" type="date" />
          </Input>
          <Input name="paymentMethod" id="ap-method" label={t("admin.field.paymentMethod")}>
            <select className="input">
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {label(m)}
                </option>
              ))}
            </select>
          </Input>
        </div>
        <div className="form__row">
          <ValidityField id="ap-validity" hint={t("admin.pay.validityHint")} />
          <Input name="referenceNumber" id="ap-reference" label={t("admin.pay.reference")}>
            <input className="input" autoComplete="off" />
          </Input>
        </div>
        <Input name="notes" id="ap-notes" label={t("admin.pay.notes")}>
          <textarea className="input admin-textarea" rows={3} />
        </Input>
        <div className="admin-form__actions">
          <button type="submit" className="btn btn--navy" disabled={busy}>
            {busy ? t("admin.saving") : t("admin.tabs.payments")}
          </button>
          <a className="btn btn--outline" href={localPath("/admin")}>
            {t("common.cancel")}
          </a>
        </div>
      </Form>
    </>
  );
}
