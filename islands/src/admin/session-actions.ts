// What Cancel, Waive and No-show of Sessions Management say and do: the API path of each, the
// confirm prompt's words, and the toast once done.
import type { BookingView } from "../api/types";
import { longDateTime } from "../lib/format";
import { type SessionAction, who } from "./SessionsTable";

export const ACTION_PATH = {
  cancel: "/api/admin/bookings/{id}/cancel",
  "no-show": "/api/admin/bookings/{id}/no-show",
  waive: "/api/admin/bookings/{id}/waive",
} as const satisfies Record<SessionAction, string>;

export function prompt(kind: SessionAction, b: BookingView): { title: string; description: string; confirmText: string; cancelText: string } {
  const when = longDateTime(b.sessionDate);
  if (kind === "waive") {
    return {
      title: "Waive this late cancellation?",
      description: `${who(b)} cancelled the session on ${when} less than 24 hours before the start, so its credit stayed used. Waiving gives the credit back, once.`,
      confirmText: "Give the credit back",
      cancelText: "Keep it used",
    };
  }
  if (kind === "cancel") {
    return {
      title: "Cancel this booking?",
      description:
        b.status === "pending"
          ? `The session booked by ${who(b)} on ${when} will be cancelled. No credit was used for it, so none moves.`
          : `The session of ${who(b)} on ${when} will be cancelled and the credit returned to the client.`,
      confirmText: "Cancel Booking",
      cancelText: "Keep Booking",
    };
  }
  return {
    title: "Mark as no-show?",
    description: `The session of ${who(b)} on ${when} will be marked as a no-show. The credit stays used.`,
    confirmText: "Mark No-show",
    cancelText: "Go back",
  };
}

/** The success toast: [title, description]. */
export function done(kind: SessionAction, b: BookingView): [string, string] {
  if (kind === "waive") return ["Late cancellation waived", `The session credit is back in the account of ${b.clientName ?? "the client"}.`];
  if (kind === "cancel") {
    return [
      "Booking Cancelled",
      b.status === "pending"
        ? `The session booked by ${b.clientName ?? "the invitee"} is cancelled. No credit was used for it.`
        : `The session of ${b.clientName ?? "the client"} is cancelled and the credit returned.`,
    ];
  }
  return ["Marked as No-show", `The session of ${b.clientName ?? "the client"} is marked as a no-show; the credit stays used.`];
}

export const failedTitle = (kind: SessionAction) =>
  kind === "cancel" ? "Error Cancelling Booking" : kind === "waive" ? "Error Waiving Cancellation" : "Error Updating Booking";
