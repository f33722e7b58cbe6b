// Extend a lot: a later last day for its credits and the reason, kept with the lot
// (POST /api/admin/lots/{id}/extend). The 14-day reminder goes again before the new day.
import { useId, useMemo, useState } from "react";
import { toast } from "sonner";
import type { Complete, ExtendLotBody, LotView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { coachTimeZone, shortDate } from "../../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../../lib/form";
import { addDays, addMonths, dayIn, extendSchema, lotSource } from "../client-page";
import { ErrorDetails, Modal } from "../dialog";
import { MAX_VALIDITY_MONTHS } from "../helpers";
import type { ExtendForm } from "./views";

const LABELS = { expiresOn: "New last day", reason: "Reason" };
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
      toast.success("Expiry extended", {
        description: `${extended.remaining} unused ${extended.remaining === 1 ? "credit" : "credits"} can now be used through ${shortDate(extended.expiresOn)}.`,
      });
      props.onExtended(extended);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : "Failed to extend the credits. Please try again.";
      const fields = err instanceof ApiError ? err.fields : {};
      showServerErrors(form, fields, ["expiresOn", "reason"]);
      setFailure({ message, fields });
      toast.error("Error", { description: message });
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title="Extend these credits"
      description={
        <>
          {lot.remaining} of {lot.granted} {lot.granted === 1 ? "credit" : "credits"} ({lotSource(lot.source).toLowerCase()}, {shortDate(lot.createdAt)}) can be
          used through <strong>{shortDate(lot.expiresOn)}</strong>. Choose a later last day and say why.
        </>
      }
    >
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={LABELS} /> : null}
        <Input name="expiresOn" id={`${id}-day`} label="New last day" hint={`After ${shortDate(lot.expiresOn)}, in the coach's time zone.`}>
          <input className="input" type="date" min={earliest} max={latest} required />
        </Input>
        <Input name="reason" id={`${id}-reason`} label="Reason" hint="Kept with the credits (3 to 500 characters).">
          <textarea className="input admin-textarea" rows={2} maxLength={500} required />
        </Input>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {busy ? "Extending..." : "Extend"}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
