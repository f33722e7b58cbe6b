// 'Add Phone Booking' dialog of Sessions Management: POST /api/admin/bookings. The client must
// have credits left (spec §5); a confirmed booking debits one on the server.
import { useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { ClientRow } from "../api/types";
import { ApiError, POST } from "../lib/api";
import { zoneName } from "../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import { Modal } from "./dialog";
import { hasCredits, label } from "./helpers";
import { BOOKING_STATUSES, PHONE_BOOKING_FIELDS, type PhoneBookingForm, type PhoneBookingPayload, phoneBookingDefaults, phoneBookingSchema } from "./validation";

const NO_CREDITS = "This client has no available credits. Please add a payment first.";
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
    if (picked && !hasCredits(picked)) toast.error("Insufficient Credits", { description: `${picked.full_name} has no available credits. Please add a payment first.` });
  }

  async function submit(payload: PhoneBookingPayload) {
    if (blocked) {
      toast.error("Insufficient Credits", { description: NO_CREDITS });
      return;
    }
    try {
      const booking = await POST("/api/admin/bookings", payload);
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
        if (err instanceof ApiError) showServerErrors(form, err.fields, PHONE_BOOKING_FIELDS);
        toast.error("Error Creating Booking", { description: message });
      }
    }
  }

  return (
    <Modal
      open={props.open}
      onOpenChange={close}
      title="Add Phone Booking"
      description="Record a session booked by phone or in person. A confirmed booking uses one of the client's credits."
    >
      <Form form={form} className="form admin-form" onSubmit={submit} aria-busy={busy}>
        <Input name="clientId" id="pb-client" label="Client" onChange={pickClient}>
          <select className="input">
            <option value="">Select a client</option>
            {props.clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email}): {c.available_credits} {c.available_credits === 1 ? "credit" : "credits"}
              </option>
            ))}
          </select>
        </Input>
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
          <Input name="sessionDate" id="pb-date" label="Session Date">
            <input className="input" type="date" />
          </Input>
          <Input name="sessionTime" id="pb-time" label={`Session Time (${zoneName()})`}>
            <input className="input" type="time" step={60} />
          </Input>
        </div>
        <Input name="status" id="pb-status" label="Status">
          <select className="input">
            {BOOKING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        </Input>
        <Input name="googleMeetLink" id="pb-link" label="Google Meet Link (optional)" hint="https://meet.google.com/…">
          <input className="input" type="url" inputMode="url" placeholder="https://meet.google.com/abc-defg-hij" />
        </Input>
        <Input name="sessionNotes" id="pb-notes" label="Session Notes (optional)">
          <textarea className="input admin-textarea" rows={3} />
        </Input>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy || blocked}>
            {busy ? "Creating..." : "Create Booking"}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
