// 'Add Phone Booking' dialog of Sessions Management: POST /api/admin/bookings. The client must
// have credits left (spec §5); a confirmed booking debits one on the server.
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { zoneName } from "../lib/format";
import { Field } from "../lib/ui";
import { useForm } from "./form";
import type { ClientRow } from "../api/types";
import { Modal } from "./dialog";
import { fieldErrors, hasCredits, label } from "./helpers";
import {
  BOOKING_STATUSES,
  PHONE_BOOKING_FIELDS,
  type PhoneBookingForm,
  phoneBookingDefaults,
  validatePhoneBooking,
} from "./validation";

const NO_CREDITS = "This client has no available credits. Please add a payment first.";

export function PhoneBookingDialog(props: { open: boolean; onOpenChange: (open: boolean) => void; clients: ClientRow[]; onCreated: () => void }) {
  const form = useForm<PhoneBookingForm>(() => phoneBookingDefaults());
  const [busy, setBusy] = useState(false);
  const { values, errors, bind } = form;
  const client = props.clients.find((c) => c.user_id === values.clientId);
  const blocked = !!client && !hasCredits(client);

  function close(next: boolean) {
    if (busy) return;
    if (!next) form.reset();
    props.onOpenChange(next);
  }

  function pickClient(id: string) {
    form.set("clientId", id);
    const picked = props.clients.find((c) => c.user_id === id);
    if (picked && !hasCredits(picked)) toast.error("Insufficient Credits", { description: `${picked.full_name} has no available credits. Please add a payment first.` });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = validatePhoneBooking(values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    if (blocked) {
      toast.error("Insufficient Credits", { description: NO_CREDITS });
      return;
    }
    setBusy(true);
    try {
      const booking = await POST("/api/admin/bookings", checked.payload);
      toast.success("Booking Created Successfully", {
        description: `${booking.clientName ?? client?.full_name ?? "The client"}: ${label(booking.status).toLowerCase()} session added.`,
      });
      form.reset();
      props.onOpenChange(false);
      props.onCreated();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        toast.error("Insufficient Credits", { description: NO_CREDITS });
      } else {
        const message = err instanceof ApiError ? err.message : "An unexpected error occurred";
        if (err instanceof ApiError) form.setErrors(fieldErrors(err.fields, PHONE_BOOKING_FIELDS));
        toast.error("Error Creating Booking", { description: message });
      }
    } finally {
      setBusy(false);
    }
  }

  const clientBind = bind("clientId", "pb-client");
  return (
    <Modal
      open={props.open}
      onOpenChange={close}
      title="Add Phone Booking"
      description="Record a session booked by phone or in person. A confirmed booking uses one of the client's credits."
    >
      <form className="form admin-form" onSubmit={submit} noValidate aria-busy={busy}>
        <Field id="pb-client" label="Client" error={errors.clientId}>
          <select className="input" {...clientBind} onChange={(e) => pickClient(e.target.value)}>
            <option value="">Select a client</option>
            {props.clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email}): {c.available_credits} {c.available_credits === 1 ? "credit" : "credits"}
              </option>
            ))}
          </select>
        </Field>
        {blocked ? (
          <div className="notice notice--error" role="alert">
            <strong>Insufficient Credits.</strong> {client.full_name} has no available credits. <a href="/admin/add-payment">Add a payment</a> first.
          </div>
        ) : client ? (
          <p className="field__hint admin-hint">
            {client.full_name} has {client.available_credits} available {client.available_credits === 1 ? "credit" : "credits"}.
          </p>
        ) : null}
        <div className="form__row">
          <Field id="pb-date" label="Session Date" error={errors.sessionDate}>
            <input className="input" type="date" {...bind("sessionDate", "pb-date")} />
          </Field>
          <Field id="pb-time" label={`Session Time (${zoneName()})`} error={errors.sessionTime}>
            <input className="input" type="time" step={60} {...bind("sessionTime", "pb-time")} />
          </Field>
        </div>
        <Field id="pb-status" label="Status" error={errors.status}>
          <select className="input" {...bind("status", "pb-status")}>
            {BOOKING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="pb-link" label="Google Meet Link (optional)" error={errors.googleMeetLink} hint="https://meet.google.com/…">
          <input className="input" type="url" inputMode="url" placeholder="https://meet.google.com/abc-defg-hij" {...bind("googleMeetLink", "pb-link")} />
        </Field>
        <Field id="pb-notes" label="Session Notes (optional)" error={errors.sessionNotes}>
          <textarea className="input admin-textarea" rows={3} {...bind("sessionNotes", "pb-notes")} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy || blocked}>
            {busy ? "Creating..." : "Create Booking"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
