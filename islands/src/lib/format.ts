// Formats of spec §9, as a person reads them: money through one formatter (the API's integer
// minor units and currency, never a float of pounds) written as the public pages write prices
// ("20,250 EGP"), dates as "MMM dd, yyyy" for payments, and sessions as a long date with the
// time on a 12-hour clock and the coach's zone named plainly ("… at 3:00 PM (Cairo time)").
import type { Money } from "../api/types";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant an ISO 8601 date-time names (the API writes RFC 3339: `2026-11-21T10:00:00.123456Z`),
 * the same in every browser: any number of fractional digits, an offset or Z; without either,
 * the viewer's local time (as date-fns' parseISO read it). Invalid Date for anything else.
 */
export function parseInstant(iso: string): Date {
  const m = ISO.exec(iso.trim());
  if (!m) return new Date(Number.NaN);
  const [y, mo, d, h, mi, sec] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const ms = Math.floor(Number(`0.${m[7] ?? "0"}`) * 1000);
  const zone = m[8];
  if (!zone) return new Date(y, mo - 1, d, h, mi, sec, ms);
  let offset = 0;
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offset = (zone[0] === "-" ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
  }
  return new Date(Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offset * 60_000);
}

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
 * Every amount the islands show, written as the public pages write prices (the generator's
 * `Money::display` and "EGP" after it): {minor: 2025000, currency: "EGP"} → "20,250 EGP", and
 * with the minor unit only when there is one: 2025050 → "20,250.50 EGP". A no-break space
 * keeps the figure and the code together. `cents` always writes the minor unit, for an
 * accounting total (the spec shows "Revenue this month" with 2 decimals: "20,250.00 EGP").
 */
export function formatMoney({ minor, currency }: Money, { cents = false } = {}): string {
  // The currency's own minor unit: 2 digits for EGP, 0 for JPY, 3 for KWD.
  const digits = moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
  const scale = 10 ** digits;
  const whole = !cents && minor % scale === 0;
  const figure = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: whole ? 0 : digits,
    maximumFractionDigits: whole ? 0 : digits,
  }).format(minor / scale);
  return `${figure}\u00a0${currency}`;
}

// Sessions are shown in the coach's time zone with its name, as the emails do
// (api/src/email/templates.rs): a client abroad and the coach read the same hour.
let coachZone = "Africa/Cairo";
const sessionFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** "Nov 21, 2026". A calendar date (`2026-11-21`, e.g. when credits expire) as written; an
 *  instant (a payment, a sign-up) on the coach's calendar, as receipts and emails date it, so
 *  a payment at 00:30 in Cairo is not dated the day before in a browser set to UTC. */
export function shortDate(iso: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (day) return `${MONTHS[Number(day[2]) - 1] ?? ""} ${day[3]}, ${day[1]}`;
  let f = dayFormats.get(coachZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: coachZone, year: "numeric", month: "short", day: "2-digit" });
    dayFormats.set(coachZone, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(parseInstant(iso))) part[p.type] = p.value;
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

/** A time zone as a person names it: "Africa/Cairo" → "Cairo time", "America/New_York" →
 *  "New York time", "UTC" → "UTC". */
export function zoneName(zone: string = coachZone): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(zone)) return "UTC";
  const city = zone.split("/").pop() ?? zone;
  return `${city.replace(/_/g, " ")} time`;
}

function partsIn(iso: string): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  let f = sessionFormats.get(coachZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: coachZone,
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hourCycle: "h12",
    });
    sessionFormats.set(coachZone, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(parseInstant(iso))) part[p.type] = p.value;
  return part;
}

/** "3:00 PM Cairo time": a time of day in the coach's time zone, as a person says it (a
 *  no-break space before AM/PM, so the two never wrap apart). */
export function timeOfDay(iso: string): string {
  const part = partsIn(iso);
  return `${part.hour}:${part.minute}\u00a0${part.dayPeriod} ${zoneName()}`;
}

/** "Thursday, December 3, 2026 at 3:00 PM (Cairo time)": a session, in the coach's time zone. */
export function longDateTime(iso: string): string {
  const part = partsIn(iso);
  return `${part.weekday}, ${part.month} ${part.day}, ${part.year} at ${part.hour}:${part.minute}\u00a0${part.dayPeriod} (${zoneName()})`;
}

/** 1 → "1 session", 3 → "3 sessions". */
export function sessions(n: number): string {
  return `${n} ${n === 1 ? "session" : "sessions"}`;
}
