// The New sponsor and Edit dialogs: the company, its billing contact, address and tax
// registration number, and the admin's own notes.
import { useId, useState } from "react";
import { Form, FormField, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { createSponsor, updateSponsor } from "../../sponsors/api";
import type { SponsorBody, SponsorView } from "../../sponsors/types";
import { ErrorDetails, Modal } from "../dialog";
import { SPONSOR_FIELDS, type SponsorValues, sponsorDefaults, sponsorSchema } from "./rules";
import { type Failure, failureOf } from "./views";

const Input = FormField<SponsorValues>;

const LABELS = (): Record<string, string> => ({
  name: t("admin.sponsors.field.name"),
  contactName: t("admin.sponsors.field.contactName"),
  contactEmail: t("admin.sponsors.field.contactEmail"),
  contactPhone: t("admin.sponsors.field.phone"),
  address: t("admin.sponsors.field.address"),
  taxId: t("admin.sponsors.field.taxId"),
  notes: t("admin.sponsors.field.notes"),
});

const valuesOf = (s: SponsorView | null): SponsorValues =>
  s
    ? {
        name: s.name,
        contactName: s.contactName,
        contactEmail: s.contactEmail,
        contactPhone: s.contactPhone ?? "",
        address: s.address ?? "",
        taxId: s.taxId ?? "",
        notes: s.notes ?? "",
      }
    : sponsorDefaults();

export function SponsorDialog(props: { sponsor: SponsorView | null; onClose: () => void; onSaved: (s: SponsorView) => void }) {
  const id = useId();
  const editing = props.sponsor;
  const form = useZodForm<SponsorValues, SponsorBody>({ schema: sponsorSchema, defaultValues: () => valuesOf(editing) });
  const busy = form.formState.isSubmitting;
  const [failure, setFailure] = useState<Failure | null>(null);

  async function submit(body: SponsorBody) {
    setFailure(null);
    try {
      const saved = editing ? await updateSponsor(editing.id, body) : await createSponsor(body);
      toast.success(t(editing ? "admin.sponsors.saved" : "admin.sponsors.created", { name: saved.name }));
      props.onSaved(saved);
    } catch (err) {
      const f = failureOf(err, t("admin.sponsors.saveFailed"));
      showServerErrors(form, f.fields, SPONSOR_FIELDS);
      setFailure(f);
      toast.error(t("common.error.title"), { description: f.message });
    }
  }

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title={editing ? t("admin.sponsors.editTitle", { name: editing.name }) : t("admin.sponsors.new")}
      description={t("admin.sponsors.form.text")}
    >
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={LABELS()} /> : null}
        <Input name="name" id={`${id}-name`} label={t("admin.sponsors.field.name")}>
          <input className="input" type="text" autoComplete="organization" maxLength={200} />
        </Input>
        <div className="form__row">
          <Input name="contactName" id={`${id}-contact`} label={t("admin.sponsors.field.contactName")}>
            <input className="input" type="text" autoComplete="off" maxLength={200} />
          </Input>
          <Input name="contactEmail" id={`${id}-email`} label={t("admin.sponsors.field.contactEmail")}>
            <input className="input" type="email" dir="ltr" autoComplete="off" spellCheck={false} maxLength={254} />
          </Input>
        </div>
        <div className="form__row">
          <Input name="contactPhone" id={`${id}-phone`} label={t("admin.sponsors.field.phone")} hint={t("admin.sponsors.field.optional")}>
            <input className="input" type="tel" dir="ltr" autoComplete="off" maxLength={30} />
          </Input>
          <Input name="taxId" id={`${id}-tax`} label={t("admin.sponsors.field.taxId")} hint={t("admin.sponsors.field.taxIdHint")}>
            <input className="input" type="text" dir="ltr" inputMode="numeric" autoComplete="off" maxLength={20} />
          </Input>
        </div>
        <Input name="address" id={`${id}-address`} label={t("admin.sponsors.field.address")} hint={t("admin.sponsors.field.addressHint")}>
          <textarea className="input admin-textarea" rows={2} maxLength={500} />
        </Input>
        <Input name="notes" id={`${id}-notes`} label={t("admin.sponsors.field.notes")} hint={t("admin.sponsors.field.notesHint")}>
          <textarea className="input admin-textarea" rows={2} maxLength={2000} />
        </Input>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {editing ? (busy ? t("admin.sponsors.saving") : t("admin.sponsors.save")) : busy ? t("admin.sponsors.creating") : t("admin.sponsors.create")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
