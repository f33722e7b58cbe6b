// Pure helpers of the client islands (/dashboard, /book-session, /payment/success): the session
// filter and its texts (spec §2), and the payment verification rules
// (spec §4, §9). No React and no DOM here, so they are unit-tested in tests/client.test.ts.
import type { PaymentRecordView, SessionView } from "../api/types";
import { sessions } from "./format";

// ---------- Dashboard ----------

export const STATUS_FILTERS = ["all", "confirmed", "cancelled", "pending"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** "all" → "All", "confirmed" → "Confirmed". */
export function filterLabel(filter: StatusFilter): string {
  return filter.charAt(0).toUpperCase() + filter.slice(1);
}

/** The dashboard call for a filter: all is the API's default. */
export function dashboardQuery(filter: StatusFilter): { status?: Exclude<StatusFilter, "all"> } {
  return filter === "all" ? {} : { status: filter };
}

/** Empty state of the session list (spec §2). */
export function emptySessionsText(filter: StatusFilter): string {
  return filter === "all" ? "No upcoming sessions" : `No ${filter} sessions`;
}

/** A session card's title: its notes, or 'Coaching Session'. */
export function sessionTitle(notes: string | null | undefined): string {
  const text = notes?.trim();
  return text ? text : "Coaching Session";
}

/** An address safe to put in an href: http(s) only, anything else (javascript:, junk) is null. */
export function webUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/** The meeting link of a session, shown only when it exists and the session is confirmed. */
export function joinLink(session: Pick<SessionView, "status" | "googleMeetLink">): string | null {
  return session.status === "confirmed" ? webUrl(session.googleMeetLink) : null;
}

/** The quick action to the scheduling service: "View Calendly Bookings". */
export function schedulerLinkText(name: string): string {
  return `View ${name.trim() || "Calendar"} Bookings`;
}

/** A payment history line's receipt: a payment's own, and for a refund the receipt of the
 *  payment it refunded (a refund has no receipt of its own; its id would find none). */
export function receiptPath(line: Pick<PaymentRecordView, "paymentId">): string {
  return `/receipt?id=${encodeURIComponent(line.paymentId)}`;
}

// ---------- Payment verification (/payment/success) ----------

/** Spec §9: the page waits 2 seconds before looking the transaction up. */
export const VERIFY_DELAY_MS = 2000;
/** A pending transaction is asked for again every 2 seconds… */
export const POLL_INTERVAL_MS = 2000;
/** …for about 30 seconds, then the page says the payment is being processed. */
export const POLL_LIMIT_MS = 30_000;

/** The cart id of /payment/success?cart_id=…, or null. */
export function cartIdFrom(search: string): string | null {
  const id = new URLSearchParams(search).get("cart_id")?.trim();
  return id ? id : null;
}

/** The transaction lookup: by cart id, else the signed-in user's latest (spec §7). */
export function failedPath(cartId: string | null | undefined): string {
  return cartId ? `/payment/failed?cart_id=${encodeURIComponent(cartId)}` : "/payment/failed";
}

export type VerifyStep = "failed" | "success" | "poll" | "processing";

/** What to do with a transaction `elapsedMs` after the first lookup (spec §4). */
export function verifyStep(status: string, elapsedMs: number): VerifyStep {
  if (status === "failed") return "failed";
  if (status !== "pending") return "success";
  return elapsedMs + POLL_INTERVAL_MS <= POLL_LIMIT_MS ? "poll" : "processing";
}

/** A package's size: sessions for one-to-one, hours for group coaching (spec §3). */
export function packageQuantity(packageType: string, n: number): string {
  if (packageType === "group") return `${n} ${n === 1 ? "hour" : "hours"}`;
  return sessions(n);
}

/** The label of that row: "Hours" or "Sessions". */
export function packageQuantityLabel(packageType: string): string {
  return packageType === "group" ? "Hours" : "Sessions";
}
