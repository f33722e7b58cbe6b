// 'Add User' dialog of Client Management: POST /api/admin/users with the create-user payload
// (spec §3) after the client-side checks of spec §5 (./validation).
import { useEffect, useRef, useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import { ErrorDetails, Modal } from "./dialog";
import { label } from "./helpers";
import { ValidityField } from "./ValidityField";
import { CREATE_USER_FIELDS, type CreateUserForm, type CreateUserPayload, USER_PAYMENT_METHODS, createUserDefaults, createUserSchema } from "./validation";

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

type Failure = { message: string; fields: Record<string, string> };
const Input = FormField<CreateUserForm>;

export function CreateUserDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: () => void }) {
  const form = useZodForm<CreateUserForm, CreateUserPayload>({ schema: createUserSchema, defaultValues: () => createUserDefaults() });
  const busy = form.formState.isSubmitting;
  const [failure, setFailure] = useState<Failure | null>(null);
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

  async function submit(payload: CreateUserPayload) {
    setFailure(null);
    try {
      const created = await POST("/api/admin/users", payload);
      if (!created?.success) throw new Error("Failed to create user");
      toast.success("User Created Successfully", {
        description:
          created.role === "admin"
            ? `${payload.fullName} (${created.email}) can now sign in as an admin.`
            : `${payload.fullName} (${created.email}) has ${created.availableCredits} available ${created.availableCredits === 1 ? "credit" : "credits"}.`,
      });
      form.reset();
      onOpenChange(false);
      onCreated();
    } catch (err) {
      const message = err instanceof ApiError || err instanceof Error ? err.message || "An unexpected error occurred" : "An unexpected error occurred";
      const fields = err instanceof ApiError ? err.fields : {};
      showServerErrors(form, fields, CREATE_USER_FIELDS);
      setFailure({ message, fields });
      toast.error("Error Creating User", { description: message });
    }
  }

  return (
    <Modal open={open} onOpenChange={close} wide title="Add User" description="Create a client or admin account. For a client you can record the first payment and the credits it buys.">
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? (
          <div ref={details}>
            <ErrorDetails message={failure.message} fields={failure.fields} labels={FIELD_LABELS} />
          </div>
        ) : null}
        <div className="form__row">
          <Input name="fullName" id="cu-name" label="Full Name">
            <input className="input" autoComplete="off" />
          </Input>
          <Input name="email" id="cu-email" label="Email">
            <input className="input" type="email" autoComplete="off" />
          </Input>
        </div>
        <div className="form__row">
          <Input name="phone" id="cu-phone" label="Phone (optional)">
            <input className="input" type="tel" autoComplete="off" />
          </Input>
          <Input name="role" id="cu-role" label="Role">
            <select className="input">
              <option value="client">Client</option>
              <option value="admin">Admin</option>
            </select>
          </Input>
        </div>
        <Input name="password" id="cu-password" label="Password" hint="At least 6 characters. Share it with the user securely.">
          <input className="input" type="password" autoComplete="new-password" />
        </Input>
        <FirstPayment />
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy}>
            {busy ? "Creating..." : "Create User"}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

/** The client's credits and first payment (an admin account has neither). */
function FirstPayment() {
  const isClient = useWatch<CreateUserForm, "role">({ name: "role" }) === "client";
  return (
    <fieldset className="admin-fieldset">
      <legend className="admin-fieldset__legend">Credits and first payment{isClient ? "" : " (client accounts only)"}</legend>
      <div className="form__row">
        <Input name="initialCredits" id="cu-credits" label="Initial Credits" hint="Sessions the client can book.">
          <input className="input" type="number" inputMode="numeric" min={0} step={1} />
        </Input>
        <Input name="paymentAmount" id="cu-amount" label="Payment Amount" hint="0 when nothing was paid.">
          <input className="input" type="number" inputMode="decimal" min={0} step={0.01} />
        </Input>
      </div>
      <div className="form__row">
        <Input name="paymentMethod" id="cu-method" label="Payment Method">
          <select className="input">
            {USER_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {label(m)}
              </option>
            ))}
          </select>
        </Input>
        <Input name="paymentDate" id="cu-date" label="Payment Date">
          <input className="input" type="date" />
        </Input>
      </div>
      <ValidityField id="cu-validity" hint="How long the initial credits last, from the payment date. The default is the site settings' validity." />
      <Input name="paymentNotes" id="cu-notes" label="Payment Notes (optional)">
        <textarea className="input admin-textarea" rows={2} />
      </Input>
    </fieldset>
  );
}
