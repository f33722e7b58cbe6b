import { describe, expect, it } from "vitest";
import { checkAdjust, checkProfile, ledgerKind, signed } from "./client-page";

describe("the client page forms", () => {
  it("refuses a short name and keeps phone and role", () => {
    expect(checkProfile({ fullName: "M", phone: "", role: "client" })).toEqual({ ok: false, errors: { fullName: "Full name must be at least 2 characters" } });
    expect(checkProfile({ fullName: " Mona ", phone: " +20 1 ", role: "admin" })).toEqual({ ok: true, payload: { fullName: "Mona", phone: "+20 1", role: "admin" } });
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
