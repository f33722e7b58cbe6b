// Extend a lot: a later last day for its credits and the reason, kept with the lot
// (POST /api/admin/lots/{id}/extend). The 14-day reminder goes again before the new day.
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import type { Complete, ExtendLotBody, LotView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { coachTimeZone, shortDate } from "../../lib/format";
import { Field } from "../../lib/ui";
import { addDays, addMonths, checkExtend, dayIn, lotSource } from "../client-page";
import { ErrorDetails, Modal } from "../dialog";
import { useForm } from "../form";
import { MAX_VALIDITY_MONTHS, fieldErrors } from "../helpers";

const LABELS = { expiresOn: "New last day", reason: "Reason" };

export function ExtendLotDialog(props: { lot: LotView; onClose: () => void; onExtended: (lot: LotView) => void }) {
  const { lot } = props;
  const id = useId();
  const form = useForm(() => ({ expiresOn: "", reason: "" }));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const earliest = addDays(lot.expiresOn, 1);
  const latest = addMonths(dayIn(coachTimeZone()), MAX_VALIDITY_MONTHS);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const checked = checkExtend(form.values, lot.expiresOn, latest);
    if (!checked.ok) return form.setErrors(checked.errors);
    setBusy(true);
    try {
      const body: Complete<ExtendLotBody> = checked.payload;
      const extended = await POST("/api/admin/lots/{id}/extend", body, { path: { id: lot.id } });
      toast.success("Expiry extended", {
        description: `${extended.remaining} unused ${extended.remaining === 1 ? "credit" : "credits"} can now be used through ${shortDate(extended.expiresOn)}.`,
      });
      props.onExtended(extended);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : "Failed to extend the credits. Please try again.";
      const fields = err instanceof ApiError ? err.fields : {};
      form.setErrors(fieldErrors(fields, ["expiresOn", "reason"] as const));
      setFailure({ message, fields });
      toast.error("Error", { description: message });
    } finally {
      setBusy(false);
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
      <form className="form admin-form" onSubmit={submit} noValidate aria-busy={busy}>
        {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={LABELS} /> : null}
        <Field id={`${id}-day`} label="New last day" error={form.errors.expiresOn} hint={`After ${shortDate(lot.expiresOn)}, in the coach's time zone.`}>
          <input className="input" type="date" min={earliest} max={latest} required {...form.bind("expiresOn", `${id}-day`)} />
        </Field>
        <Field id={`${id}-reason`} label="Reason" error={form.errors.reason} hint="Kept with the credits (3 to 500 characters).">
          <textarea className="input admin-textarea" rows={2} maxLength={500} required {...form.bind("reason", `${id}-reason`)} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {busy ? "Extending..." : "Extend"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
