// Pure helpers of the client dashboard (/dashboard): the session filter and its texts (spec §2),
// the session cards' titles and links, and the payment history's receipts. No React and no DOM
// here, so they are unit-tested in tests/client.test.ts. /payment/success has its own
// (./payment-views); each page's module names only texts its page loads (tests/namespaces).
import type { PaymentRecordView, SessionView } from "../api/types";
import { localPath, t } from "./i18n";
import { webUrl } from "./web";

export { webUrl };

// ---------- Dashboard ----------

export const STATUS_FILTERS = ["all", "confirmed", "cancelled", "pending"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** "all" → "All", "confirmed" → "Confirmed". */
export function filterLabel(filter: StatusFilter): string {
  return t(`client.filter.${filter}`);
}

/** The dashboard call for a filter: all is the API's default. */
export function dashboardQuery(filter: StatusFilter): { status?: Exclude<StatusFilter, "all"> } {
  return filter === "all" ? {} : { status: filter };
}

/** Empty state of the session list (spec §2). */
export function emptySessionsText(filter: StatusFilter): string {
  return t(`client.empty.${filter}`);
}

/** A session card's title: its notes, or 'Coaching Session'. */
export function sessionTitle(notes: string | null | undefined): string {
  const text = notes?.trim();
  return text ? text : t("common.coachingSession");
}

/** The meeting link of a session, shown only when it exists and the session is confirmed. */
export function joinLink(session: Pick<SessionView, "status" | "googleMeetLink">): string | null {
  return session.status === "confirmed" ? webUrl(session.googleMeetLink) : null;
}

/** The quick action to the scheduling service: "View Calendly Bookings". */
export function schedulerLinkText(name: string): string {
  return t("client.actions.schedulerBookings", { name: name.trim() || t("client.actions.calendar") });
}

/** A payment history line's receipt: a payment's own, and for a refund the receipt of the
 *  payment it refunded (a refund has no receipt of its own; its id would find none). */
export function receiptPath(line: Pick<PaymentRecordView, "paymentId">): string {
  return localPath(`/receipt?id=${encodeURIComponent(line.paymentId)}`);
}
