// /admin/add-payment: records a client's offline payment (POST /api/admin/payments); the
// sessions purchased are added to the client's credits. Same admin guard as /admin.
import { type FormEvent, useEffect, useState } from "react";
import { toast } from "sonner";
import { useForm } from "../admin/form";
import type { ClientRow } from "../api/types";
import { LoadFailed, useAdminSession } from "../admin/guard";
import { fieldErrors, label } from "../admin/helpers";
import { ArrowLeftIcon } from "../admin/parts";
import { ValidityField } from "../admin/ValidityField";
import {
  ADD_PAYMENT_FIELDS,
  type AddPaymentForm,
  PAYMENT_METHODS,
  REQUIRED_FIELDS_MESSAGE,
  addPaymentDefaults,
  validateAddPayment,
} from "../admin/validation";
import { ApiError, GET, POST } from "../lib/api";
import { shortDate } from "../lib/format";
import { mountIsland } from "../lib/mount";
import { Field, Spinner } from "../lib/ui";

const credits = (n: number) => `${n} ${n === 1 ? "credit" : "credits"}`;
const sessions = (n: number) => `${n} ${n === 1 ? "session" : "sessions"}`;

function AddPayment() {
  const { session, failed } = useAdminSession();
  const [clients, setClients] = useState<ClientRow[] | null>(null);
  const [clientsFailed, setClientsFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<AddPaymentForm>(() => addPaymentDefaults());
  const { values, errors, bind } = form;

  useEffect(() => {
    if (!session) return;
    let live = true;
    GET("/api/admin/clients")
      .then((c) => live && setClients(c))
      .catch(() => {
        if (!live) return;
        setClients([]);
        setClientsFailed(true);
        toast.error("Error Loading Clients", { description: "Failed to load clients." });
      });
    return () => {
      live = false;
    };
  }, [session]);

  // A message about the form is stale once the admin edits it.
  useEffect(() => setFormError(null), [values]);

  if (failed) return <LoadFailed />;
  if (!session || clients === null) return <Spinner label="Loading clients…" />;

  const client = clients.find((c) => c.user_id === values.clientId);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const checked = validateAddPayment(values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      setFormError(checked.message);
      if (checked.message === REQUIRED_FIELDS_MESSAGE) toast.error("Error", { description: REQUIRED_FIELDS_MESSAGE });
      return;
    }
    const { payload } = checked;
    const name = client?.full_name ?? "The client";
    setBusy(true);
    try {
      const recorded = await POST("/api/admin/payments", payload);
      // The credits now available, from the refreshed list (or worked out if it fails).
      let available = (client?.available_credits ?? 0) + payload.sessionsPurchased;
      try {
        const fresh = await GET("/api/admin/clients");
        setClients(fresh);
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
      if (err instanceof ApiError) form.setErrors(fieldErrors(err.fields, ADD_PAYMENT_FIELDS));
      setFormError(server || "Failed to add payment record.");
      toast.error("Error", { description: server ? `Failed to add payment record. ${server}` : "Failed to add payment record." });
    } finally {
      setBusy(false);
    }
  }

  const clientBind = bind("clientId", "ap-client");
  return (
    <div className="admin admin-payment">
      <a className="link-arrow link-arrow--back admin-back" href="/admin">
        <ArrowLeftIcon />
        Back<span className="visually-hidden"> to the admin dashboard</span>
      </a>

      <section className="panel admin-panel admin-payment__panel" aria-labelledby="payment-title">
        <h2 className="panel__title" id="payment-title">
          Record a Payment
        </h2>
        <p className="admin-panel__lead">For bank transfers, cash and other payments made outside the site. The sessions purchased are added to the client's credits.</p>

        {clientsFailed ? (
          <div className="notice notice--error" role="alert">
            Failed to load clients. <button type="button" className="link-button" onClick={() => window.location.reload()}>Reload the page</button> to try again.
          </div>
        ) : null}
        {formError ? (
          <div className="notice notice--error" role="alert">
            {formError}
          </div>
        ) : null}

        <form className="form admin-form" onSubmit={submit} noValidate aria-busy={busy}>
          <Field id="ap-client" label="Client" error={errors.clientId}>
            <select className="input" {...clientBind} aria-describedby={[clientBind["aria-describedby"], client ? "ap-client-credits" : ""].filter(Boolean).join(" ") || undefined}>
              <option value="">Select a client</option>
              {clients.map((c) => (
                <option key={c.user_id} value={c.user_id}>
                  {c.full_name} ({c.email})
                </option>
              ))}
            </select>
          </Field>
          {client ? (
            <p className="field__hint admin-hint" id="ap-client-credits">
              {client.full_name} has {credits(client.available_credits)} available of {client.total_credits} purchased.
            </p>
          ) : null}

          <div className="form__row">
            <Field id="ap-amount" label="Amount" error={errors.amount} hint="In EGP, in steps of 0.01 (e.g. 4500.50).">
              <input className="input" type="number" inputMode="decimal" min={0} step={0.01} {...bind("amount", "ap-amount")} />
            </Field>
            <Field id="ap-sessions" label="Sessions Purchased" error={errors.sessionsPurchased}>
              <input className="input" type="number" inputMode="numeric" min={1} step={1} {...bind("sessionsPurchased", "ap-sessions")} />
            </Field>
          </div>
          <div className="form__row">
            <Field id="ap-date" label="Payment Date" error={errors.paymentDate}>
              <input className="input" type="date" {...bind("paymentDate", "ap-date")} />
            </Field>
            <Field id="ap-method" label="Payment Method" error={errors.paymentMethod}>
              <select className="input" {...bind("paymentMethod", "ap-method")}>
                {PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {label(m)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <div className="form__row">
            <ValidityField
              id="ap-validity"
              error={errors.validityMonths}
              hint="Counted from the payment date. The default is the site settings' validity."
              select={bind("validityMonths", "ap-validity")}
            />
            <Field id="ap-reference" label="Reference Number (optional)" error={errors.referenceNumber}>
              <input className="input" autoComplete="off" {...bind("referenceNumber", "ap-reference")} />
            </Field>
          </div>
          <Field id="ap-notes" label="Notes (optional)" error={errors.notes}>
            <textarea className="input admin-textarea" rows={3} {...bind("notes", "ap-notes")} />
          </Field>
          <div className="admin-form__actions">
            <button type="submit" className="btn btn--navy" disabled={busy}>
              {busy ? "Saving..." : "Add Payment"}
            </button>
            <a className="btn btn--outline" href="/admin">
              Cancel
            </a>
          </div>
        </form>
      </section>
    </div>
  );
}

export const mount = mountIsland(AddPayment);
