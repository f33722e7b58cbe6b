import { describe, expect, it } from "vitest";
import type { Refundable } from "../api/types";
import {
  addDays,
  addMonths,
  canExtend,
  checkAdjust,
  checkExtend,
  checkProfile,
  checkRefund,
  dayIn,
  ledgerKind,
  lotSource,
  lotState,
  moneyInput,
  refundAction,
  refundDefaults,
  refundSuggestion,
  signed,
} from "./client-page";

describe("the client page forms", () => {
  it("refuses a short name and keeps phone and role", () => {
    expect(checkProfile({ fullName: "M", phone: "", role: "client", language: "en" })).toEqual({ ok: false, errors: { fullName: "Full name must be at least 2 characters" } });
    expect(checkProfile({ fullName: " Mona ", phone: " +20 1 ", role: "admin", language: "ar" })).toEqual({
      ok: true,
      payload: { fullName: "Mona", phone: "+20 1", role: "admin", language: "ar" },
    });
    expect(checkProfile({ fullName: "Mona", phone: "", role: "client", language: "fr" })).toEqual({
      ok: false,
      errors: { language: "Language must be en (English) or ar (Arabic)" },
    });
  });

  it("needs a whole, non-zero adjustment and a reason", () => {
    const r = checkAdjust({ delta: "1.5", reason: " " });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(["delta", "reason"]);
    expect(checkAdjust({ delta: "-2", reason: "Correction" })).toEqual({ ok: true, payload: { delta: -2, reason: "Correction" } });
  });

  it("labels ledger rows", () => {
    expect(ledgerKind("booking_refund")).toBe("Booking refund");
    expect([signed(3), signed(-1), signed(0)]).toEqual(["+3", "\u22121", "0"]);
  });
});

describe("credits by lot", () => {
  it("names where a lot came from", () => {
    expect(lotSource("purchase")).toBe("Online purchase");
    expect(lotSource("offline_payment")).toBe("Recorded payment");
    expect(lotSource("admin_adjustment")).toBe("Added by an admin");
    expect(lotSource("something_new")).toBe("Something new");
  });

  it("tells live, used and expired lots apart; only a lot not expired can be extended", () => {
    expect(lotState({ remaining: 2, expiredAt: null })).toBe("live");
    expect(lotState({ remaining: 0, expiredAt: null })).toBe("used");
    expect(lotState({ remaining: 0, expiredAt: "2026-05-01T00:00:00Z" })).toBe("expired");
    expect(canExtend({ expiredAt: null })).toBe(true);
    expect(canExtend({ expiredAt: "2026-05-01T00:00:00Z" })).toBe(false);
  });

  it("adds days and calendar months to a day, keeping to the month's last day", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addMonths("2026-08-31", 6)).toBe("2027-02-28");
    expect(addMonths("2027-11-30", 3)).toBe("2028-02-29");
    expect(addMonths("2026-01-15", 60)).toBe("2031-01-15");
  });

  it("says today's date in the coach's time zone", () => {
    // 23:30 UTC is already the next day in Cairo (UTC+2) and still the same day in New York.
    const at = new Date("2026-11-21T23:30:00Z");
    expect(dayIn("Africa/Cairo", at)).toBe("2026-11-22");
    expect(dayIn("America/New_York", at)).toBe("2026-11-21");
  });

  it("needs a real day after the current one, within 60 months, and a reason of 3 characters or more", () => {
    const current = "2027-05-21";
    const latest = "2031-11-21";
    expect(checkExtend({ expiresOn: "", reason: "" }, current, latest)).toEqual({
      ok: false,
      errors: { expiresOn: "Choose the new expiry date", reason: "Give a reason (at least 3 characters)" },
    });
    expect(checkExtend({ expiresOn: "2027-02-30", reason: "Travel" }, current, latest)).toMatchObject({ ok: false, errors: { expiresOn: "Choose the new expiry date" } });
    expect(checkExtend({ expiresOn: current, reason: "Travel" }, current, latest)).toMatchObject({
      ok: false,
      errors: { expiresOn: "The new expiry date must be later than the current one" },
    });
    expect(checkExtend({ expiresOn: "2031-11-22", reason: "Travel" }, current, latest)).toMatchObject({
      ok: false,
      errors: { expiresOn: "The new expiry date must be within 60 months" },
    });
    expect(checkExtend({ expiresOn: "2027-06-30", reason: " ok " }, current, latest)).toMatchObject({ ok: false, errors: { reason: "Give a reason (at least 3 characters)" } });
    expect(checkExtend({ expiresOn: " 2027-06-30 ", reason: "  Client travelling for work " }, current, latest)).toEqual({
      ok: true,
      payload: { expiresOn: "2027-06-30", reason: "Client travelling for work" },
    });
  });
});

describe("refunds", () => {
  const egp = (minor: number) => ({ minor, currency: "EGP" });
  const refundable = (over: Partial<Refundable> = {}): Refundable => ({
    paymentId: "p1",
    clientId: "c1",
    method: "paytabs",
    paid: egp(2_025_000),
    refunded: egp(0),
    maxAmount: egp(2_025_000),
    sessionsPurchased: 5,
    unusedCredits: 4,
    suggestedAmount: egp(1_620_000),
    ...over,
  });

  it("starts empty, and suggests the unused credits and their paid price, as the amount input holds it", () => {
    expect(moneyInput(egp(1_620_000))).toBe("16200.00");
    expect(moneyInput(egp(450_050))).toBe("4500.50");
    expect(moneyInput({ minor: 1500, currency: "JPY" })).toBe("1500");
    // A full refund is never one click away: the form opens with nothing to refund…
    expect(refundDefaults()).toEqual({ credits: "", amount: "", reason: "" });
    expect(checkRefund(refundDefaults(), refundable())).toEqual({ ok: false, errors: { amount: "Refund an amount, credits, or both" } });
    // …and the suggestion is filled in only when asked for.
    expect(refundSuggestion(refundable())).toEqual({ credits: "4", amount: "16200.00" });
  });

  it("turns the form into the API's body, in the currency's major unit", () => {
    expect(checkRefund({ credits: "4", amount: "16200.00", reason: "  Moving abroad " }, refundable())).toEqual({
      ok: true,
      payload: { credits: 4, amount: 16200, reason: "Moving abroad" },
      minor: 1_620_000,
    });
    expect(checkRefund({ credits: "0", amount: "4500.5", reason: "" }, refundable())).toEqual({ ok: true, payload: { credits: 0, amount: 4500.5, reason: null }, minor: 450_050 });
    expect(checkRefund({ credits: "2", amount: "", reason: "" }, refundable())).toMatchObject({ ok: true, payload: { credits: 2, amount: 0 } });
  });

  it("refuses more credits than are unused and more money than is left", () => {
    expect(checkRefund({ credits: "5", amount: "20250.01", reason: "" }, refundable())).toEqual({
      ok: false,
      errors: { credits: "At most 4 unused credits can be removed", amount: "At most 20,250\u00a0EGP can be refunded" },
    });
    expect(checkRefund({ credits: "1", amount: "1", reason: "" }, refundable({ unusedCredits: 0 }))).toMatchObject({
      ok: false,
      errors: { credits: "At most 0 unused credits can be removed" },
    });
  });

  it("refuses a part credit, a negative or finer-than-piastre amount, and a refund of nothing", () => {
    expect(checkRefund({ credits: "1.5", amount: "-1", reason: "" }, refundable())).toEqual({
      ok: false,
      errors: { credits: "Credits must be a whole number, 0 or more", amount: "Amount must be 0 or more, in steps of 0.01" },
    });
    expect(checkRefund({ credits: "0", amount: "10.005", reason: "" }, refundable())).toMatchObject({ ok: false, errors: { amount: "Amount must be 0 or more, in steps of 0.01" } });
    expect(checkRefund({ credits: "0", amount: "0", reason: "" }, refundable())).toEqual({ ok: false, errors: { amount: "Refund an amount, credits, or both" } });
    expect(checkRefund({ credits: "0", amount: "1", reason: "x".repeat(501) }, refundable())).toMatchObject({ ok: false, errors: { reason: "The reason must be at most 500 characters" } });
  });

  it("names what the confirm button does", () => {
    expect(refundAction(4, egp(1_620_000))).toBe("Refund 16,200\u00a0EGP and remove 4 credits");
    expect(refundAction(1, egp(0))).toBe("Remove 1 credit");
    expect(refundAction(0, egp(450_050))).toBe("Refund 4,500.50\u00a0EGP");
  });
});
