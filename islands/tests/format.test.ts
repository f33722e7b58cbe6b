import { describe, expect, it } from "vitest";
import { formatMoney, longDateTime, parseInstant, sessions, setCoachTimeZone, shortDate, timeOfDay, zoneName } from "../src/lib/format";
import { redirectFor, type Session } from "../src/lib/session";

const as = (role: "admin" | "client"): Session => ({
  user: { id: "u", email: "a@b.com", email_confirmed: true },
  profile: { user_id: "u", full_name: "A", email: "a@b.com", phone: null, role },
  language: "en",
});

describe("formats", () => {
  it("shows money as the public pages do: separators, the code after, decimals only with piastres", () => {
    expect(formatMoney({ minor: 2025000, currency: "EGP" })).toBe("20,250\u00a0EGP");
    expect(formatMoney({ minor: 2025050, currency: "EGP" })).toBe("20,250.50\u00a0EGP");
    expect(formatMoney({ minor: 450050, currency: "EGP" })).toBe("4,500.50\u00a0EGP");
    expect(formatMoney({ minor: 450005, currency: "EGP" })).toBe("4,500.05\u00a0EGP");
    expect(formatMoney({ minor: 5, currency: "EGP" })).toBe("0.05\u00a0EGP");
    expect(formatMoney({ minor: 0, currency: "EGP" })).toBe("0\u00a0EGP");
    expect(formatMoney({ minor: 1_000_000_000, currency: "EGP" })).toBe("10,000,000\u00a0EGP");
    // Revenue net of refunds can go below zero.
    expect(formatMoney({ minor: -150025, currency: "EGP" })).toBe("-1,500.25\u00a0EGP");
  });
  it("writes an accounting total with its two decimals, as the spec shows revenue", () => {
    expect(formatMoney({ minor: 2025000, currency: "EGP" }, { cents: true })).toBe("20,250.00\u00a0EGP");
    expect(formatMoney({ minor: 0, currency: "EGP" }, { cents: true })).toBe("0.00\u00a0EGP");
  });
  it("uses each currency's own minor unit", () => {
    expect(formatMoney({ minor: 1500, currency: "JPY" })).toBe("1,500\u00a0JPY");
    expect(formatMoney({ minor: 1500, currency: "KWD" })).toBe("1.500\u00a0KWD");
    expect(formatMoney({ minor: 3000, currency: "KWD" })).toBe("3\u00a0KWD");
  });
  it("says session or sessions", () => {
    expect(sessions(1)).toBe("1 session");
    expect(sessions(5)).toBe("5 sessions");
  });
  it("formats payment dates as MMM dd, yyyy", () => {
    expect(shortDate("2026-03-01T10:00:00Z")).toBe("Mar 01, 2026");
  });
  it("dates an instant on the coach's calendar, and a calendar date as written", () => {
    // 23:30 UTC on Nov 23 is 01:30 on Nov 24 in Cairo: the receipt and the dashboard agree.
    expect(shortDate("2026-11-23T23:30:00Z")).toBe("Nov 24, 2026");
    expect(shortDate("2026-11-23")).toBe("Nov 23, 2026");
  });
  it("shows session times as a person writes them, in the coach's time zone named plainly", () => {
    // 13:00 UTC is 3 PM in Cairo in December (UTC+2), whatever the viewer's own zone.
    expect(longDateTime("2026-12-03T13:00:00Z")).toBe("Thursday, December 3, 2026 at 3:00\u00a0PM (Cairo time)");
    expect(longDateTime("2026-11-24T12:39:00Z")).toBe("Tuesday, November 24, 2026 at 2:39\u00a0PM (Cairo time)");
    // Midnight and noon are 12, not 0 or 00.
    expect(longDateTime("2026-12-02T22:05:00Z")).toBe("Thursday, December 3, 2026 at 12:05\u00a0AM (Cairo time)");
    expect(longDateTime("2026-12-03T10:00:00Z")).toBe("Thursday, December 3, 2026 at 12:00\u00a0PM (Cairo time)");
    expect(timeOfDay("2026-11-24T00:39:00Z")).toBe("2:39\u00a0AM Cairo time");
    setCoachTimeZone("Asia/Dubai");
    expect(longDateTime("2026-12-03T13:00:00Z")).toBe("Thursday, December 3, 2026 at 5:00\u00a0PM (Dubai time)");
    setCoachTimeZone("Not/AZone");
    expect(longDateTime("2026-12-03T23:30:00Z")).toBe("Friday, December 4, 2026 at 3:30\u00a0AM (Dubai time)");
    setCoachTimeZone("America/New_York");
    expect(timeOfDay("2026-12-03T23:30:00Z")).toBe("6:30\u00a0PM New York time");
    setCoachTimeZone("Africa/Cairo");
  });
  it("names a time zone plainly", () => {
    expect(zoneName("Africa/Cairo")).toBe("Cairo time");
    expect(zoneName("America/Los_Angeles")).toBe("Los Angeles time");
    expect(zoneName("America/Argentina/Buenos_Aires")).toBe("Buenos Aires time");
    expect(zoneName("UTC")).toBe("UTC");
    expect(zoneName("Etc/UTC")).toBe("UTC");
  });
});

describe("redirect rules of spec §6", () => {
  it("sends signed-out visitors to /auth", () => {
    expect(redirectFor("dashboard", null)).toBe("/auth");
    expect(redirectFor("admin", null)).toBe("/auth");
    expect(redirectFor("auth", null)).toBeNull();
  });
  it("sends a client away from admin pages and an admin away from client pages", () => {
    expect(redirectFor("admin", as("client"))).toBe("/dashboard");
    expect(redirectFor("dashboard", as("admin"))).toBe("/admin");
    expect(redirectFor("book-session", as("admin"))).toBe("/admin");
    expect(redirectFor("dashboard", as("client"))).toBeNull();
  });
  it("sends a signed-in visitor from /auth to their home", () => {
    expect(redirectFor("auth", as("admin"))).toBe("/admin");
    expect(redirectFor("auth", as("client"))).toBe("/dashboard");
  });
});

describe("reading the API's instants", () => {
  it("takes RFC 3339 with any fractional digits and any offset, the same in every browser", () => {
    expect(parseInstant("2026-11-21T10:00:00Z").toISOString()).toBe("2026-11-21T10:00:00.000Z");
    expect(parseInstant("2026-11-21T10:00:00.123456789Z").toISOString()).toBe("2026-11-21T10:00:00.123Z");
    expect(parseInstant("2026-11-21T12:30:00+02:00").toISOString()).toBe("2026-11-21T10:30:00.000Z");
    expect(parseInstant("2026-11-21T05:00:00-05:30").toISOString()).toBe("2026-11-21T10:30:00.000Z");
    expect(parseInstant("2026-11-21 12:00:00+0200").toISOString()).toBe("2026-11-21T10:00:00.000Z");
    // Without an offset: the viewer's own clock, as date-fns read it.
    expect(parseInstant("2026-11-21T10:00:00").getTime()).toBe(new Date(2026, 10, 21, 10, 0, 0).getTime());
    expect(Number.isNaN(parseInstant("next tuesday").getTime())).toBe(true);
  });
  it("writes every month of a calendar date as MMM dd, yyyy", () => {
    expect(["2026-01-05", "2026-09-30", "2026-12-31"].map(shortDate)).toEqual(["Jan 05, 2026", "Sep 30, 2026", "Dec 31, 2026"]);
  });
});
