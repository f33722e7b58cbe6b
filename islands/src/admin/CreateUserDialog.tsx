// 'Add User' dialog of Client Management: POST /api/admin/users with the create-user payload
// (spec §3) after the client-side checks of spec §5.
import { type FormEvent, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { Field } from "../lib/ui";
import { useForm } from "./form";
import { ErrorDetails, Modal } from "./dialog";
import { fieldErrors, label } from "./helpers";
import { ValidityField } from "./ValidityField";
import {
  CREATE_USER_FIELDS,
  type CreateUserForm,
  USER_PAYMENT_METHODS,
  createUserDefaults,
  validateCreateUser,
} from "./validation";

const FIELD_LABELS: Record<string, string> = {
  fullName: "Full Name",
  email: "Email",
  phone: "Phone",
  role: "Role",
  password: "Password",
  initialCredits: "Initial Credits",
  paymentAmount: "Payment Amount",
  paymentMethod: "Payment Method",
  paymentDate: "Payment Date",
  paymentNotes: "Payment Notes",
  validityMonths: "Credits valid for",
};

export function CreateUserDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: () => void }) {
  const form = useForm<CreateUserForm>(() => createUserDefaults());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const { values, errors, bind } = form;
  const details = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure) details.current?.scrollIntoView({ block: "nearest" });
  }, [failure]);

  function close(next: boolean) {
    if (busy) return;
    if (!next) {
      form.reset();
      setFailure(null);
    }
    onOpenChange(next);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const checked = validateCreateUser(values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      const created = await POST("/api/admin/users", checked.payload);
      if (!created?.success) throw new Error("Failed to create user");
      toast.success("User Created Successfully", {
        description:
          created.role === "admin"
            ? `${checked.payload.fullName} (${created.email}) can now sign in as an admin.`
            : `${checked.payload.fullName} (${created.email}) has ${created.availableCredits} available ${created.availableCredits === 1 ? "credit" : "credits"}.`,
      });
      form.reset();
      onOpenChange(false);
      onCreated();
    } catch (err) {
      const message = err instanceof ApiError || err instanceof Error ? err.message || "An unexpected error occurred" : "An unexpected error occurred";
      const fields = err instanceof ApiError ? err.fields : {};
      form.setErrors(fieldErrors(fields, CREATE_USER_FIELDS));
      setFailure({ message, fields });
      toast.error("Error Creating User", { description: message });
    } finally {
      setBusy(false);
    }
  }

  const isClient = values.role === "client";
  return (
    <Modal open={open} onOpenChange={close} wide title="Add User" description="Create a client or admin account. For a client you can record the first payment and the credits it buys.">
      <form className="form admin-form" onSubmit={submit} noValidate aria-busy={busy}>
        {failure ? (
          <div ref={details}>
            <ErrorDetails message={failure.message} fields={failure.fields} labels={FIELD_LABELS} />
          </div>
        ) : null}
        <div className="form__row">
          <Field id="cu-name" label="Full Name" error={errors.fullName}>
            <input className="input" autoComplete="off" {...bind("fullName", "cu-name")} />
          </Field>
          <Field id="cu-email" label="Email" error={errors.email}>
            <input className="input" type="email" autoComplete="off" {...bind("email", "cu-email")} />
          </Field>
        </div>
        <div className="form__row">
          <Field id="cu-phone" label="Phone (optional)" error={errors.phone}>
            <input className="input" type="tel" autoComplete="off" {...bind("phone", "cu-phone")} />
          </Field>
          <Field id="cu-role" label="Role" error={errors.role}>
            <select className="input" {...bind("role", "cu-role")}>
              <option value="client">Client</option>
              <option value="admin">Admin</option>
            </select>
          </Field>
        </div>
        <Field id="cu-password" label="Password" error={errors.password} hint="At least 6 characters. Share it with the user securely.">
          <input className="input" type="password" autoComplete="new-password" {...bind("password", "cu-password")} />
        </Field>

        <fieldset className="admin-fieldset">
          <legend className="admin-fieldset__legend">Credits and first payment{isClient ? "" : " (client accounts only)"}</legend>
          <div className="form__row">
            <Field id="cu-credits" label="Initial Credits" error={errors.initialCredits} hint="Sessions the client can book.">
              <input className="input" type="number" inputMode="numeric" min={0} step={1} {...bind("initialCredits", "cu-credits")} />
            </Field>
            <Field id="cu-amount" label="Payment Amount" error={errors.paymentAmount} hint="0 when nothing was paid.">
              <input className="input" type="number" inputMode="decimal" min={0} step={0.01} {...bind("paymentAmount", "cu-amount")} />
            </Field>
          </div>
          <div className="form__row">
            <Field id="cu-method" label="Payment Method" error={errors.paymentMethod}>
              <select className="input" {...bind("paymentMethod", "cu-method")}>
                {USER_PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {label(m)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="cu-date" label="Payment Date" error={errors.paymentDate}>
              <input className="input" type="date" {...bind("paymentDate", "cu-date")} />
            </Field>
          </div>
          <ValidityField
            id="cu-validity"
            error={errors.validityMonths}
            hint="How long the initial credits last, from the payment date. The default is the site settings' validity."
            select={bind("validityMonths", "cu-validity")}
          />
          <Field id="cu-notes" label="Payment Notes (optional)" error={errors.paymentNotes}>
            <textarea className="input admin-textarea" rows={2} {...bind("paymentNotes", "cu-notes")} />
          </Field>
        </fieldset>

        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy}>
            {busy ? "Creating..." : "Create User"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
