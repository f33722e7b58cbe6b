// The form of /admin/add-payment: a client's offline payment (POST /api/admin/payments); the
// sessions purchased are added to the client's credits. Its rules (./validation, with zod) load
// on the form's first focus or hover.
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { ClientRow } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { shortDate } from "../lib/format";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "../lib/form";
import {
  ADD_PAYMENT_FIELDS,
  type AddPaymentForm as Values,
  type AddPaymentPayload,
  PAYMENT_METHODS,
  REQUIRED_FIELDS_MESSAGE,
  addPaymentDefaults,
  addPaymentMessage,
} from "./fields";
import { label } from "./helpers";
import { ValidityField } from "./ValidityField";

const rules = lazySchema(() => import("./validation").then((m) => m.addPaymentSchema));
const credits = (n: number) => `${n} ${n === 1 ? "credit" : "credits"}`;
const sessions = (n: number) => `${n} ${n === 1 ? "session" : "sessions"}`;
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
    if (message === REQUIRED_FIELDS_MESSAGE) toast.error("Error", { description: REQUIRED_FIELDS_MESSAGE });
  }

  async function submit(payload: AddPaymentPayload) {
    setFormError(null);
    const name = client?.full_name ?? "The client";
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
      toast.success("Payment Added", {
        description: `${sessions(payload.sessionsPurchased)} added for ${name}, usable through ${shortDate(recorded.expiresOn)}. ${credits(available)} now available.`,
      });
      form.reset();
    } catch (err) {
      const server = err instanceof ApiError ? err.message : "";
      if (err instanceof ApiError) showServerErrors(form, err.fields, ADD_PAYMENT_FIELDS);
      setFormError(server || "Failed to add payment record.");
      toast.error("Error", { description: server ? `Failed to add payment record. ${server}` : "Failed to add payment record." });
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
        <Input name="clientId" id="ap-client" label="Client" describedBy={client ? "ap-client-credits" : undefined}>
          <select className="input">
            <option value="">Select a client</option>
            {clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email})
              </option>
            ))}
          </select>
        </Input>
        {client ? (
          <p className="field__hint admin-hint" id="ap-client-credits">
            {client.full_name} has {credits(client.available_credits)} available of {client.total_credits} purchased.
          </p>
        ) : null}
        <div className="form__row">
          <Input name="amount" id="ap-amount" label="Amount" hint="In EGP, in steps of 0.01 (e.g. 4500.50).">
            <input className="input" type="number" inputMode="decimal" min={0} step={0.01} />
          </Input>
          <Input name="sessionsPurchased" id="ap-sessions" label="Sessions Purchased">
            <input className="input" type="number" inputMode="numeric" min={1} step={1} />
          </Input>
        </div>
        <div className="form__row">
          <Input name="paymentDate" id="ap-date" label="Payment Date">
            <input className="input" type="date" />
          </Input>
          <Input name="paymentMethod" id="ap-method" label="Payment Method">
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
          <ValidityField id="ap-validity" hint="Counted from the payment date. The default is the site settings' validity." />
          <Input name="referenceNumber" id="ap-reference" label="Reference Number (optional)">
            <input className="input" autoComplete="off" />
          </Input>
        </div>
        <Input name="notes" id="ap-notes" label="Notes (optional)">
          <textarea className="input admin-textarea" rows={3} />
        </Input>
        <div className="admin-form__actions">
          <button type="submit" className="btn btn--navy" disabled={busy}>
            {busy ? "Saving..." : "Add Payment"}
          </button>
          <a className="btn btn--outline" href="/admin">
            Cancel
          </a>
        </div>
      </Form>
    </>
  );
}
