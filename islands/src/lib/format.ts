// Formats of spec §9: money in the site's currency (EGP) through one formatter, dates as
// "MMM dd, yyyy" for payments and a long date with time for sessions, and session(s).
import { format, parseISO } from "date-fns";

const groups = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 0 });
const cents = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 2 });

/** 20250 → "20,250 EGP"; 4500.5 → "4,500.50 EGP". */
export function money(amount: number, currency = "EGP"): string {
  const text = Number.isInteger(amount) ? groups.format(amount) : cents.format(amount);
  return `${text} ${currency}`;
}

/** The spec's "$" display of a payment amount with two decimals (payment history, revenue). */
export function dollars(amount: number): string {
  return `$${cents.format(amount)}`;
}

/** "Nov 21, 2026". */
export function shortDate(iso: string): string {
  return format(parseISO(iso), "MMM dd, yyyy");
}

/** "Thursday, December 3, 2026 at 3:00 PM" in the viewer's time zone. */
export function longDateTime(iso: string): string {
  return format(parseISO(iso), "EEEE, MMMM d, yyyy 'at' h:mm a");
}

/** 1 → "1 session", 3 → "3 sessions". */
export function sessions(n: number): string {
  return `${n} ${n === 1 ? "session" : "sessions"}`;
}
