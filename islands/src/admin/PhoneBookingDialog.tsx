// 'Add Phone Booking' dialog of Sessions Management: POST /api/admin/bookings. The client must
// have credits left (spec §5); a confirmed booking debits one on the server.
import { useWatch } from "react-hook-form";
import { toast } from "../lib/toast";
import type { ClientRow } from "../api/types";
import { ApiError, POST } from "../lib/api";
import { credits, zoneName } from "../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import { localPath, t } from "../lib/i18n";
import { rich } from "../lib/rich";
import { Modal } from "./dialog";
import { hasCredits, label } from "./helpers";
import { BOOKING_STATUSES, PHONE_BOOKING_FIELDS, type PhoneBookingForm, type PhoneBookingPayload, phoneBookingDefaults, phoneBookingSchema } from "./validation";

const Input = FormField<PhoneBookingForm>;

export function PhoneBookingDialog(props: { open: boolean; onOpenChange: (open: boolean) => void; clients: ClientRow[]; onCreated: () => void }) {
  const form = useZodForm<PhoneBookingForm, PhoneBookingPayload>({ schema: phoneBookingSchema, defaultValues: () => phoneBookingDefaults() });
  const busy = form.formState.isSubmitting;
  const clientId = useWatch({ control: form.control, name: "clientId" });
  const client = props.clients.find((c) => c.user_id === clientId);
  const blocked = !!client && !hasCredits(client);

  function close(next: boolean) {
    if (busy) return;
    if (!next) form.reset();
    props.onOpenChange(next);
  }

  function pickClient(id: string) {
    const picked = props.clients.find((c) => c.user_id === id);
    if (picked && !hasCredits(picked)) toast.error(t("common.insufficientCredits"), { description: t("admin.phone.noCredits", { name: picked.full_name }) });
  }

  async function submit(payload: PhoneBookingPayload) {
    if (blocked) {
      toast.error(t("common.insufficientCredits"), { description: t("admin.noCredits") });
      return;
    }
    try {
      const booking = await POST("/api/admin/bookings", payload);
      toast.success(t("admin.phone.done"), {
        description: t("admin.phone.doneText", { who: booking.clientName ?? client?.full_name ?? t("admin.theClientCap"), status: label(booking.status).toLowerCase() }),
      });
      form.reset();
      props.onOpenChange(false);
      props.onCreated();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        toast.error(t("common.insufficientCredits"), { description: t("admin.noCredits") });
      } else {
        const message = err instanceof ApiError ? err.message : t("common.error.unexpected");
        if (err instanceof ApiError) showServerErrors(form, err.fields, PHONE_BOOKING_FIELDS);
        toast.error(t("admin.phone.failed"), { description: message });
      }
    }
  }

  return (
    <Modal
      open={props.open}
      onOpenChange={close}
      title={t("admin.phone.title")}
      description={t("admin.phone.lead")}
    >
      <Form form={form} className="form admin-form" onSubmit={submit} aria-busy={busy}>
        <Input name="clientId" id="pb-client" label={t("admin.col.client")} onChange={pickClient}>
          <select className="input">
            <option value="">{t("admin.selectClient")}</option>
            {props.clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {t("admin.clientOption", { name: c.full_name, email: c.email, credits: credits(c.available_credits) })}
              </option>
            ))}
          </select>
        </Input>
        {blocked ? (
          <div className="notice notice--error" role="alert">
            {rich("admin.blocked", {
              name: client.full_name,
              strong: (c) => <strong>{c}</strong>,
              link: (c) => <a href={localPath("/admin/add-payment")}>{c}</a>,
            })}
          </div>
        ) : client ? (
          <p className="field__hint admin-hint">{t("admin.clientHasCredits", { name: client.full_name, count: client.available_credits })}</p>
        ) : null}
        <div className="form__row">
          <Input name="sessionDate" id="pb-date" label={t("admin.phone.date")}>
            <input className="input" type="date" />
          </Input>
          <Input name="sessionTime" id="pb-time" label={t("admin.phone.time", { zone: zoneName() })}>
            <input className="input" type="time" step={60} />
          </Input>
        </div>
        <Input name="status" id="pb-status" label={t("admin.col.status")}>
          <select className="input">
            {BOOKING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        </Input>
        <Input name="googleMeetLink" id="pb-link" label={t("admin.phone.link")} hint="https://meet.google.com/…">
          <input className="input" type="url" inputMode="url" placeholder="https://meet.google.com/abc-defg-hij" />
        </Input>
        <Input name="sessionNotes" id="pb-notes" label={t("admin.phone.notes")}>
          <textarea className="input admin-textarea" rows={3} />
        </Input>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy || blocked}>
            {busy ? t("admin.creating") : t("admin.phone.create")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
