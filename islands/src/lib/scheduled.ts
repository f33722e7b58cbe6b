// The scheduler's word that a booking was made: Calendly's embed posts
// `{event: "calendly.event_scheduled", payload: {event: {uri}, invitee: {uri}}}` to the page
// around it. Only a message from the scheduler's own origin counts; the booking itself is only
// real once its webhook has reached the API, so the page then asks the API, with backoff.

export const SCHEDULED_EVENT = "calendly.event_scheduled";

/** Waits between asks (about 30 s in all): the webhook usually lands within a second or two. */
export const REFRESH_DELAYS_MS = [1000, 2000, 3000, 5000, 8000, 12000] as const;

/** The origin of the scheduling page the frame shows (a relative URL is this site's). */
export function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** Is this message the scheduler saying a booking was made? */
export function isScheduledMessage(origin: string, data: unknown, schedulerOrigin: string | null): boolean {
  if (!schedulerOrigin || origin !== schedulerOrigin) return false;
  return typeof data === "object" && data !== null && (data as { event?: unknown }).event === SCHEDULED_EVENT;
}
