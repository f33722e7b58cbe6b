// Formats of spec §9, as a person reads them: money through one formatter (the API's integer
// minor units and currency, never a float of pounds) written as the public pages write prices
// ("20,250 EGP"), dates as "MMM dd, yyyy" for payments, and sessions as a long date with the
// time on a 12-hour clock and the coach's zone named plainly ("… at 3:00 PM (Cairo time)").
// On an Arabic page (./i18n) the same figures go through the browser's Intl as Egypt writes
// them, with Western digits and Arabic month names: "20,250 ج.م.", "3 ديسمبر 2026",
// "الخميس، 3 ديسمبر 2026، الساعة 3:00 م (بتوقيت القاهرة)"; the order of the parts is the
// catalogue's (common.format.*).
import type { Money } from "../api/types";
import { lang, locale, t, tMaybe } from "./i18n";

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

const arabicMoney = new Map<string, Intl.NumberFormat>();

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
  if (lang() === "ar") {
    // "‏20,250 ج.م.‏": the currency's Arabic symbol after the figure, Western digits.
    const key = `${currency}:${whole}`;
    let f = arabicMoney.get(key);
    if (!f) {
      f = new Intl.NumberFormat(locale(), {
        style: "currency",
        currency,
        minimumFractionDigits: whole ? 0 : digits,
        maximumFractionDigits: whole ? 0 : digits,
      });
      arabicMoney.set(key, f);
    }
    return f.format(minor / scale);
  }
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
  // A calendar date is the same day everywhere: read it in UTC.
  const zone = day ? "UTC" : coachZone;
  const at = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : parseInstant(iso);
  const key = `${locale()}|${zone}`;
  let f = dayFormats.get(key);
  if (!f) {
    // English "Nov 03, 2026" (spec §9); Arabic "3 نوفمبر 2026".
    f = new Intl.DateTimeFormat(locale(), { timeZone: zone, year: "numeric", month: "short", day: lang() === "ar" ? "numeric" : "2-digit" });
    dayFormats.set(key, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(at)) part[p.type] = p.value;
  return t("common.format.day", { month: part.month, day: part.day, year: part.year });
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
 *  "New York time", "UTC" → "UTC" (Arabic: "بتوقيت القاهرة", the city's Arabic name when the
 *  catalogue has it, common.city.*). */
export function zoneName(zone: string = coachZone): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(zone)) return "UTC";
  const city = tMaybe(`common.city.${zone}`) ?? (zone.split("/").pop() ?? zone).replace(/_/g, " ");
  return t("common.format.zone", { city });
}

function partsIn(iso: string): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  const key = `${locale()}|${coachZone}`;
  let f = sessionFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale(), {
      timeZone: coachZone,
      weekday: "long",
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hourCycle: "h12",
    });
    sessionFormats.set(key, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(parseInstant(iso))) part[p.type] = p.value;
  return part;
}

/** "3:00 PM Cairo time": a time of day in the coach's time zone, as a person says it (a
 *  no-break space before AM/PM, so the two never wrap apart). */
export function timeOfDay(iso: string): string {
  const part = partsIn(iso);
  return t("common.format.timeInZone", { time: `${part.hour}:${part.minute}\u00a0${part.dayPeriod}`, zone: zoneName() });
}

/** "Thursday, December 3, 2026 at 3:00 PM (Cairo time)": a session, in the coach's time zone. */
export function longDateTime(iso: string): string {
  const part = partsIn(iso);
  return t("common.format.session", {
    weekday: part.weekday,
    month: part.month,
    day: part.day,
    year: part.year,
    time: `${part.hour}:${part.minute}\u00a0${part.dayPeriod}`,
    zone: zoneName(),
  });
}

/** 1 → "1 session", 3 → "3 sessions" (Arabic: "جلسة واحدة", "3 جلسات", "11 جلسة"). */
export function sessions(n: number): string {
  return t("common.count.sessions", { count: n });
}

/** 1 → "1 credit", 3 → "3 credits". */
export function credits(n: number): string {
  return t("common.count.credits", { count: n });
}

/** Text that reads left to right whatever the page's direction (a tax number "512-384-976",
 *  a reference): isolated with LRI … PDI, so an Arabic line does not reverse its groups. */
export const ltr = (s: string) => `\u2066${s}\u2069`;
