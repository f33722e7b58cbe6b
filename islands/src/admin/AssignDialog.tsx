// 'Assign to client' for a booking that needs attention (Booking Management): the admin picks
// the client; POST /api/admin/bookings/{id}/assign uses one of that client's credits now, and
// the booking becomes theirs, confirmed (the client gets the confirmation email).
import { useId } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "sonner";
import * as z from "zod/mini";
import { ApiError, POST } from "../lib/api";
import { longDateTime } from "../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import type { BookingView, ClientRow } from "../api/types";
import { Modal } from "./dialog";
import { hasCredits, suggestedClient } from "./helpers";

const NO_CREDITS = "This client has no available credits. Please add a payment first.";

const choiceSchema = z.object({ clientId: z.string().check(z.minLength(1, "Please select a client")) });
type Choice = z.infer<typeof choiceSchema>;

export function AssignDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  booking: BookingView;
  clients: ClientRow[];
  onAssigned: () => void;
  focusOnClose?: () => HTMLElement | null | undefined;
}) {
  const { booking, clients } = props;
  const form = useZodForm<Choice>({ schema: choiceSchema, defaultValues: () => ({ clientId: suggestedClient(booking, clients)?.user_id ?? "" }) });
  const busy = form.formState.isSubmitting;
  const id = useId();
  const selectId = `${id}-client`;
  const clientId = useWatch({ control: form.control, name: "clientId" });
  const client = clients.find((c) => c.user_id === clientId);
  const blocked = !!client && !hasCredits(client);
  const booker = [booking.clientName, booking.clientEmail ? `<${booking.clientEmail}>` : null].filter(Boolean).join(" ") || "an unknown invitee";

  function close(next: boolean) {
    if (busy) return;
    props.onOpenChange(next);
  }

  async function submit({ clientId }: Choice) {
    if (blocked) {
      toast.error("Insufficient Credits", { description: NO_CREDITS });
      return;
    }
    try {
      const assigned = await POST("/api/admin/bookings/{id}/assign", { clientId }, { path: { id: booking.id } });
      toast.success("Booking Assigned", {
        description: `The session on ${longDateTime(assigned.sessionDate)} is confirmed for ${assigned.clientName ?? client?.full_name ?? "the client"}; one credit was used.`,
      });
      props.onAssigned();
      props.onOpenChange(false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.message === "Insufficient Credits") {
        toast.error("Insufficient Credits", { description: NO_CREDITS });
      } else {
        const message = err instanceof ApiError ? err.message : "An unexpected error occurred";
        if (err instanceof ApiError) showServerErrors(form, err.fields, ["clientId"]);
        toast.error("Error Assigning Booking", { description: message });
      }
    }
  }

  return (
    <Modal
      open={props.open}
      onOpenChange={close}
      title="Assign to client"
      description={
        <>
          The session on {longDateTime(booking.sessionDate)} was booked by {booker} without proof of who the client is. Assigning it uses one of the chosen
          client&apos;s credits and confirms it for them.
        </>
      }
      focusOnClose={props.focusOnClose}
    >
      <Form form={form} className="form admin-form" onSubmit={submit} aria-busy={busy}>
        <FormField<Choice>
          name="clientId"
          id={selectId}
          label="Client"
          hintDescribes
          hint={
            client
              ? `${client.full_name} has ${client.available_credits} available ${client.available_credits === 1 ? "credit" : "credits"}.`
              : "The client whose email the invitee typed is chosen when there is one."
          }
        >
          <select className="input">
            <option value="">Select a client</option>
            {clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email}): {c.available_credits} {c.available_credits === 1 ? "credit" : "credits"}
              </option>
            ))}
          </select>
        </FormField>
        {blocked ? (
          <div className="notice notice--error" role="alert">
            <strong>Insufficient Credits.</strong> {client.full_name} has no available credits. <a href="/admin/add-payment">Add a payment</a> first.
          </div>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy || blocked} aria-busy={busy}>
            {busy ? "Assigning..." : "Assign and use 1 credit"}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
