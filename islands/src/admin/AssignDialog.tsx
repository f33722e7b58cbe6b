// 'Assign to client' for a booking that needs attention (Booking Management): the admin picks
// the client; POST /api/admin/bookings/{id}/assign uses one of that client's credits now, and
// the booking becomes theirs, confirmed (the client gets the confirmation email).
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { longDateTime } from "../lib/format";
import type { BookingView, ClientRow } from "../api/types";
import { Modal } from "./dialog";
import { hasCredits, suggestedClient } from "./helpers";

const NO_CREDITS = "This client has no available credits. Please add a payment first.";

export function AssignDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  booking: BookingView;
  clients: ClientRow[];
  onAssigned: () => void;
  focusOnClose?: () => HTMLElement | null | undefined;
}) {
  const { booking, clients } = props;
  const [clientId, setClientId] = useState(() => suggestedClient(booking, clients)?.user_id ?? "");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const id = useId();
  const selectId = `${id}-client`;
  const client = clients.find((c) => c.user_id === clientId);
  const blocked = !!client && !hasCredits(client);
  const booker = [booking.clientName, booking.clientEmail ? `<${booking.clientEmail}>` : null].filter(Boolean).join(" ") || "an unknown invitee";

  function close(next: boolean) {
    if (busy) return;
    props.onOpenChange(next);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!clientId) {
      setError("Please select a client");
      return;
    }
    if (blocked) {
      toast.error("Insufficient Credits", { description: NO_CREDITS });
      return;
    }
    setBusy(true);
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
        if (err instanceof ApiError && err.fields.clientId) setError(err.fields.clientId);
        toast.error("Error Assigning Booking", { description: message });
      }
    } finally {
      setBusy(false);
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
      <form className="form admin-form" onSubmit={submit} noValidate aria-busy={busy}>
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Client
          </label>
          <select
            className="input"
            id={selectId}
            value={clientId}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${selectId}-error` : `${selectId}-hint`}
            onChange={(e) => {
              setClientId(e.target.value);
              setError(undefined);
            }}
          >
            <option value="">Select a client</option>
            {clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {c.full_name} ({c.email}): {c.available_credits} {c.available_credits === 1 ? "credit" : "credits"}
              </option>
            ))}
          </select>
          {error ? (
            <p className="field__error" id={`${selectId}-error`} role="alert">
              {error}
            </p>
          ) : (
            <p className="field__hint" id={`${selectId}-hint`}>
              {client
                ? `${client.full_name} has ${client.available_credits} available ${client.available_credits === 1 ? "credit" : "credits"}.`
                : "The client whose email the invitee typed is chosen when there is one."}
            </p>
          )}
        </div>
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
      </form>
    </Modal>
  );
}
