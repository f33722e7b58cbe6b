// The pure parts of the two public pages a sponsor opens without an account: the invoice
// (/invoice?token=…: may it be paid, how long to wait for a payment PayTabs just took) and the
// usage report (/sponsor-report?token=…: session days in the page's language).
import { shortDate } from "../lib/format";
import type { InvoiceStatus } from "./types";

/** The page's token and whether PayTabs just brought the payer back (`&paid=1`). */
export function pageParams(search: string): { token: string; paid: boolean } {
  const q = new URLSearchParams(search);
  return { token: (q.get("token") ?? "").trim(), paid: q.get("paid") === "1" };
}

/** Only a sent invoice, overdue or not, can be paid online (a draft is not issued yet). */
export const canPay = (status: InvoiceStatus | string) => status === "sent" || status === "overdue";

/** How long the page asks again after a payment, until the invoice reads paid. */
export const PAID_WAIT_MS = 10_000;
export const PAID_POLL_MS = 2_000;

/** Whether to ask again: back from paying, not paid yet, and still within the wait. */
export function shouldPoll(backFromPaying: boolean, status: string, elapsedMs: number): boolean {
  return backFromPaying && status !== "paid" && status !== "void" && elapsedMs < PAID_WAIT_MS;
}

/** The state of a payment the payer just made: thanked once paid, confirming while waiting,
 *  and after the wait, told it is on its way. */
export function paymentNote(backFromPaying: boolean, status: string, waited: boolean): "thanks" | "confirming" | "pending" | null {
  if (!backFromPaying) return null;
  if (status === "paid") return "thanks";
  if (status === "void") return null;
  return waited ? "pending" : "confirming";
}

/** A report's session days (YYYY-MM-DD; an instant is dated on the coach's calendar), in
 *  order, each as the page's language writes it. */
export function reportDays(days: readonly string[]): { day: string; text: string }[] {
  return [...days]
    .filter((d) => /^\d{4}-\d{2}-\d{2}/.test(d))
    .sort()
    .map((day) => ({ day, text: shortDate(day) }));
}
