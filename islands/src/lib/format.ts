// Formats of spec §9: money through one formatter (the API's integer minor units and currency,
// never a float of pounds), dates as "MMM dd, yyyy" for payments and a long date with time for
// sessions, and session(s).
import { format, parseISO } from "date-fns";
import type { Money } from "../api/types";

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let f = moneyFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "code" });
    moneyFormats.set(currency, f);
  }
  return f;
}

/**
 * Every amount the islands show: {minor: 2025000, currency: "EGP"} → "EGP 20,250.00" (with a
 * no-break space, so the code and the figure never wrap apart).
 */
export function formatMoney({ minor, currency }: Money): string {
  const f = moneyFormat(currency);
  // The currency's own minor unit: 2 digits for EGP, 0 for JPY, 3 for KWD.
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits);
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
