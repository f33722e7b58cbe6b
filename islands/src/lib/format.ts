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

// Sessions are shown in the coach's time zone with its name, the same way the emails say it
// (api/src/email/templates.rs): a client abroad and the coach read the same hour.
let coachZone = "Africa/Cairo";
const sessionFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** "Nov 21, 2026". A calendar date (`2026-11-21`, e.g. when credits expire) as written; an
 *  instant (a payment, a sign-up) on the coach's calendar, as receipts and emails date it, so
 *  a payment at 00:30 in Cairo is not dated the day before in a browser set to UTC. */
export function shortDate(iso: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return format(parseISO(iso), "MMM dd, yyyy");
  let f = dayFormats.get(coachZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: coachZone, year: "numeric", month: "short", day: "2-digit" });
    dayFormats.set(coachZone, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(parseISO(iso))) part[p.type] = p.value;
  return `${part.month} ${part.day}, ${part.year}`;
}

/** The site's `time_zone` setting (an IANA name); islands get it in their props. */
export function setCoachTimeZone(zone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    coachZone = zone;
  } catch {
    console.error(`unknown time zone ${zone}; sessions stay in ${coachZone}`);
  }
}

export function coachTimeZone(): string {
  return coachZone;
}

/** "Thursday, December 03, 2026 at 15:00 (Africa/Cairo)", in the coach's time zone. */
export function longDateTime(iso: string): string {
  let f = sessionFormats.get(coachZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: coachZone,
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    sessionFormats.set(coachZone, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(parseISO(iso))) part[p.type] = p.value;
  return `${part.weekday}, ${part.month} ${part.day}, ${part.year} at ${part.hour}:${part.minute} (${coachZone})`;
}

/** 1 → "1 session", 3 → "3 sessions". */
export function sessions(n: number): string {
  return `${n} ${n === 1 ? "session" : "sessions"}`;
}
