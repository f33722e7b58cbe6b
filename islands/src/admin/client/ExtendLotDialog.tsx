// Extend a lot: a later last day for its credits and the reason, kept with the lot
// (POST /api/admin/lots/{id}/extend). The 14-day reminder goes again before the new day.
import { useId, useMemo, useState } from "react";
import { toast } from "../../lib/toast";
import type { Complete, ExtendLotBody, LotView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { coachTimeZone, credits, shortDate } from "../../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
import { rich } from "../../lib/rich";
import { addDays, addMonths, dayIn, extendSchema, lotSource } from "../client-page";
import { ErrorDetails, Modal } from "../dialog";
import { MAX_VALIDITY_MONTHS } from "../helpers";
import type { ExtendForm } from "./views";

const Input = FormField<ExtendForm>;

export function ExtendLotDialog(props: { lot: LotView; onClose: () => void; onExtended: (lot: LotView) => void }) {
  const { lot } = props;
  const id = useId();
  const earliest = addDays(lot.expiresOn, 1);
  const latest = addMonths(dayIn(coachTimeZone()), MAX_VALIDITY_MONTHS);
  const schema = useMemo(() => extendSchema(lot.expiresOn, latest), [lot.expiresOn, latest]);
  const form = useZodForm<ExtendForm, Complete<ExtendLotBody>>({ schema, defaultValues: { expiresOn: "", reason: "" } });
  const busy = form.formState.isSubmitting;
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);

  async function submit(body: Complete<ExtendLotBody>) {
    setFailure(null);
    try {
      const extended = await POST("/api/admin/lots/{id}/extend", body, { path: { id: lot.id } });
      toast.success(t("adminClient.extend.done"), {
        description: t("adminClient.extend.doneText", { count: extended.remaining, date: shortDate(extended.expiresOn) }),
      });
      props.onExtended(extended);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : t("adminClient.extend.failed");
      const fields = err instanceof ApiError ? err.fields : {};
      showServerErrors(form, fields, ["expiresOn", "reason"]);
      setFailure({ message, fields });
      toast.error(t("common.error.title"), { description: message });
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title={t("adminClient.extend.title")}
      description={rich("adminClient.extend.text", {
        remaining: lot.remaining,
        granted: credits(lot.granted),
        source: lotSource(lot.source).toLowerCase(),
        created: shortDate(lot.createdAt),
        date: shortDate(lot.expiresOn),
        strong: (c) => <strong>{c}</strong>,
      })}
    >
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={{ expiresOn: t("adminClient.extend.day"), reason: t("adminClient.reason") }} /> : null}
        <Input name="expiresOn" id={`${id}-day`} label={t("adminClient.extend.day")} hint={t("adminClient.extend.dayHint", { date: shortDate(lot.expiresOn) })}>
          <input className="input" type="date" min={earliest} max={latest} required />
        </Input>
        <Input name="reason" id={`${id}-reason`} label={t("adminClient.reason")} hint={t("adminClient.extend.reasonHint")}>
          <textarea className="input admin-textarea" rows={2} maxLength={500} required />
        </Input>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {busy ? t("adminClient.extend.busy") : t("adminClient.extend")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
