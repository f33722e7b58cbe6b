// The New engagement dialog: what the sponsor buys (title, credits, price, how long the credits
// last, from when, when the invoice is due) and the executives who get credits from it, each an
// existing client or an email to invite (./MembersField); what nobody is given stays in the
// pool, shown live.
import { useId, useState } from "react";
import type { ClientRow } from "../../api/types";
import { Form, FormField, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
import { defaultValidityMonths } from "../../lib/site-settings";
import { toast } from "../../lib/toast";
import { createEngagement } from "../../sponsors/api";
import type { CreateEngagementBody, EngagementView, SponsorView } from "../../sponsors/types";
import { ErrorDetails, Modal } from "../dialog";
import { dayIn } from "../../lib/days";
import { coachTimeZone } from "../../lib/format";
import { MembersField } from "./MembersField";
import { ENGAGEMENT_FIELDS, type EngagementValues, engagementDefaults, engagementSchema } from "./rules";
import { type Failure, failureOf } from "./views";

type Body = Omit<CreateEngagementBody, "sponsorId">;
const Input = FormField<EngagementValues>;

const LABELS = (): Record<string, string> => ({
  title: t("admin.sponsors.field.title"),
  credits: t("admin.sponsors.field.credits"),
  price: t("admin.sponsors.field.price"),
  validityMonths: t("admin.sponsors.field.validity"),
  startsOn: t("admin.sponsors.field.startsOn"),
  dueDays: t("admin.sponsors.field.dueDays"),
  members: t("admin.sponsors.field.members"),
});

export function EngagementDialog(props: { sponsor: SponsorView; clients: ClientRow[]; onClose: () => void; onCreated: (e: EngagementView) => void }) {
  const id = useId();
  const form = useZodForm<EngagementValues, Body>({
    schema: engagementSchema,
    defaultValues: () => engagementDefaults(dayIn(coachTimeZone()), defaultValidityMonths()),
  });
  const busy = form.formState.isSubmitting;
  const [failure, setFailure] = useState<Failure | null>(null);

  async function submit(body: Body) {
    setFailure(null);
    try {
      const created = await createEngagement({ sponsorId: props.sponsor.id, ...body });
      toast.success(t("admin.sponsors.engagementCreated", { title: created.title }));
      props.onCreated(created);
    } catch (err) {
      const f = failureOf(err, t("admin.sponsors.engagementFailed"));
      showServerErrors(form, f.fields, ENGAGEMENT_FIELDS);
      setFailure(f);
      toast.error(t("common.error.title"), { description: f.message });
    }
  }

  return (
    <Modal
      open
      wide
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title={t("admin.sponsors.newEngagement")}
      description={t("admin.sponsors.engagementForm.text", { sponsor: props.sponsor.name })}
    >
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={LABELS()} /> : null}
        <Input name="title" id={`${id}-title`} label={t("admin.sponsors.field.title")} hint={t("admin.sponsors.field.titleHint")}>
          <input className="input" type="text" autoComplete="off" maxLength={200} />
        </Input>
        <div className="form__row">
          <Input name="credits" id={`${id}-credits`} label={t("admin.sponsors.field.credits")} hint={t("admin.sponsors.field.creditsHint")}>
            <input className="input" type="number" inputMode="numeric" min={1} max={1000} step={1} />
          </Input>
          <Input name="price" id={`${id}-price`} label={t("admin.sponsors.field.price")} hint={t("admin.sponsors.field.priceHint")}>
            <input className="input" type="number" inputMode="decimal" min={0} step={0.01} />
          </Input>
        </div>
        <div className="form__row">
          <Input name="validityMonths" id={`${id}-validity`} label={t("admin.sponsors.field.validity")} hint={t("admin.sponsors.field.validityHint")}>
            <input className="input" type="number" inputMode="numeric" min={1} max={60} step={1} />
          </Input>
          <Input name="startsOn" id={`${id}-starts`} label={t("admin.sponsors.field.startsOn")}>
            <input className="input" type="date" />
          </Input>
          <Input name="dueDays" id={`${id}-due`} label={t("admin.sponsors.field.dueDays")} hint={t("admin.sponsors.field.dueDaysHint")}>
            <input className="input" type="number" inputMode="numeric" min={0} max={365} step={1} />
          </Input>
        </div>
        <MembersField id={`${id}-members`} clients={props.clients} />
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {busy ? t("admin.sponsors.creating") : t("admin.sponsors.createEngagement")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
