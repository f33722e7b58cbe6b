// 'Add User' dialog of Client Management: POST /api/admin/users with the create-user payload
// (spec §3) after the client-side checks of spec §5 (./validation).
import { useEffect, useRef, useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "../lib/toast";
import { ApiError, POST } from "../lib/api";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import { t } from "../lib/i18n";
import { LanguageOptions } from "../lib/LanguageOptions";
import { ErrorDetails, Modal } from "./dialog";
import { label } from "./helpers";
import { ValidityField } from "./ValidityField";
import { CREATE_USER_FIELDS, type CreateUserForm, type CreateUserPayload, USER_PAYMENT_METHODS, createUserDefaults, createUserSchema } from "./validation";

const fieldLabels = (): Record<string, string> => ({
  fullName: t("admin.field.fullName"),
  email: t("admin.field.email"),
  phone: t("admin.field.phone"),
  role: t("admin.field.role"),
  password: t("admin.field.password"),
  initialCredits: t("admin.field.initialCredits"),
  paymentAmount: t("admin.field.paymentAmount"),
  paymentMethod: t("admin.field.paymentMethod"),
  paymentDate: t("admin.field.paymentDate"),
  paymentNotes: t("admin.field.paymentNotes"),
  validityMonths: t("admin.validity.label"),
  language: t("admin.language.label"),
});

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
      if (!created?.success) throw new Error(t("admin.user.failed"));
      toast.success(t("admin.user.done"), {
        description:
          created.role === "admin"
            ? t("admin.user.doneAdmin", { name: payload.fullName, email: created.email })
            : t("admin.user.doneClient", { name: payload.fullName, email: created.email, count: created.availableCredits }),
      });
      form.reset();
      onOpenChange(false);
      onCreated();
    } catch (err) {
      const message = err instanceof ApiError || err instanceof Error ? err.message || t("common.error.unexpected") : t("common.error.unexpected");
      const fields = err instanceof ApiError ? err.fields : {};
      showServerErrors(form, fields, CREATE_USER_FIELDS);
      setFailure({ message, fields });
      toast.error(t("admin.user.error"), { description: message });
    }
  }

  return (
    <Modal open={open} onOpenChange={close} wide title={t("admin.addUser")} description={t("admin.user.lead")}>
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? (
          <div ref={details}>
            <ErrorDetails message={failure.message} fields={failure.fields} labels={fieldLabels()} />
          </div>
        ) : null}
        <div className="form__row">
          <Input name="fullName" id="cu-name" label={t("admin.field.fullName")}>
            <input className="input" autoComplete="off" />
          </Input>
          <Input name="email" id="cu-email" label={t("admin.field.email")}>
            <input className="input" type="email" autoComplete="off" />
          </Input>
        </div>
        <div className="form__row">
          <Input name="phone" id="cu-phone" label={t("admin.field.phoneOptional")}>
            <input className="input" type="tel" autoComplete="off" />
          </Input>
          <Input name="role" id="cu-role" label={t("admin.field.role")}>
            <select className="input">
              <option value="client">{t("admin.label.client")}</option>
              <option value="admin">{t("admin.label.admin")}</option>
            </select>
          </Input>
        </div>
        <div className="form__row">
          <Input name="password" id="cu-password" label={t("admin.field.password")} hint={t("admin.user.passwordHint")}>
            <input className="input" type="password" autoComplete="new-password" />
          </Input>
          <Input name="language" id="cu-language" label={t("admin.language.label")} hint={t("admin.user.languageHint")}>
            <LanguageOptions />
          </Input>
        </div>
        <FirstPayment />
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy}>
            {busy ? t("admin.creating") : t("admin.user.create")}
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
      <legend className="admin-fieldset__legend">{isClient ? t("admin.user.firstPayment") : t("admin.user.firstPaymentClientsOnly")}</legend>
      <div className="form__row">
        <Input name="initialCredits" id="cu-credits" label={t("admin.field.initialCredits")} hint={t("admin.user.creditsHint")}>
          <input className="input" type="number" inputMode="numeric" min={0} step={1} />
        </Input>
        <Input name="paymentAmount" id="cu-amount" label={t("admin.field.paymentAmount")} hint={t("admin.user.amountHint")}>
          <input className="input" type="number" inputMode="decimal" min={0} step={0.01} />
        </Input>
      </div>
      <div className="form__row">
        <Input name="paymentMethod" id="cu-method" label={t("admin.field.paymentMethod")}>
          <select className="input">
            {USER_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {label(m)}
              </option>
            ))}
          </select>
        </Input>
        <Input name="paymentDate" id="cu-date" label={t("admin.field.paymentDate")}>
          <input className="input" type="date" />
        </Input>
      </div>
      <ValidityField id="cu-validity" hint={t("admin.user.validityHint")} />
      <Input name="paymentNotes" id="cu-notes" label={t("admin.user.notes")}>
        <textarea className="input admin-textarea" rows={2} />
      </Input>
    </fieldset>
  );
}
