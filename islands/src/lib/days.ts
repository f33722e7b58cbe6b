// Calendar days (YYYY-MM-DD) as the admin's forms check them: a real day, and today in the
// coach's time zone. No messages, so any island can use them.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** [year, month, day] of a real day, or null (2026-02-30 is no day). */
export function dayParts(day: string): [number, number, number] | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? [y, mo, d] : null;
}

/** Today (YYYY-MM-DD) in an IANA time zone: the coach's day, as the API counts expiry. */
export function dayIn(zone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}
