import { describe, expect, it } from "vitest";
import { formatMoney, longDateTime, sessions, setCoachTimeZone, shortDate } from "../src/lib/format";
import { redirectFor, type Session } from "../src/lib/session";

const as = (role: "admin" | "client"): Session => ({
  user: { id: "u", email: "a@b.com", email_confirmed: true },
  profile: { user_id: "u", full_name: "A", email: "a@b.com", phone: null, role },
});

describe("formats", () => {
  it("shows money from minor units with its currency code, separators and two decimals", () => {
    expect(formatMoney({ minor: 2025000, currency: "EGP" })).toBe("EGP\u00a020,250.00");
    expect(formatMoney({ minor: 450050, currency: "EGP" })).toBe("EGP\u00a04,500.50");
    expect(formatMoney({ minor: 5, currency: "EGP" })).toBe("EGP\u00a00.05");
    expect(formatMoney({ minor: 0, currency: "EGP" })).toBe("EGP\u00a00.00");
  });
  it("uses each currency's own minor unit", () => {
    expect(formatMoney({ minor: 1500, currency: "JPY" })).toBe("JPY\u00a01,500");
    expect(formatMoney({ minor: 1500, currency: "KWD" })).toBe("KWD\u00a01.500");
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
  it("shows session times in the coach's time zone with its name, like the emails", () => {
    // 13:00 UTC is 15:00 in Cairo in December (UTC+2), whatever the viewer's own zone.
    expect(longDateTime("2026-12-03T13:00:00Z")).toBe("Thursday, December 03, 2026 at 15:00 (Africa/Cairo)");
    setCoachTimeZone("Asia/Dubai");
    expect(longDateTime("2026-12-03T13:00:00Z")).toBe("Thursday, December 03, 2026 at 17:00 (Asia/Dubai)");
    setCoachTimeZone("Not/AZone");
    expect(longDateTime("2026-12-03T23:30:00Z")).toBe("Friday, December 04, 2026 at 03:30 (Asia/Dubai)");
    setCoachTimeZone("Africa/Cairo");
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
