import { describe, expect, it } from "vitest";
import { MAX_VALIDITY_MONTHS, VALIDITY_CHOICES, monthsLabel, validityMonthsOf } from "./helpers";
import { addPaymentDefaults, createUserDefaults, validateAddPayment, validateCreateUser } from "./validation";

const VALIDITY_MESSAGE = "Credits must be valid for 1 to 60 months";

describe("the validity picker of Add Payment and Add User", () => {
  it("offers 1 to 60 months after the settings' default", () => {
    expect(VALIDITY_CHOICES[0]).toBe(1);
    expect(VALIDITY_CHOICES.at(-1)).toBe(MAX_VALIDITY_MONTHS);
    expect(VALIDITY_CHOICES).toHaveLength(60);
    expect([monthsLabel(1), monthsLabel(6)]).toEqual(["1 month", "6 months"]);
  });

  it("sends null for the default, the months picked, and nothing outside 1 to 60", () => {
    expect(validityMonthsOf("")).toBeNull();
    expect(validityMonthsOf("3")).toBe(3);
    expect(validityMonthsOf("60")).toBe(60);
    for (const bad of ["0", "61", "2.5", "six"]) expect(validityMonthsOf(bad)).toBeUndefined();
  });

  it("starts both forms on the settings' default", () => {
    expect(addPaymentDefaults("2026-11-21").validityMonths).toBe("");
    expect(createUserDefaults("2026-11-21").validityMonths).toBe("");
  });

  it("puts the months picked in the Add Payment body", () => {
    const filled = { ...addPaymentDefaults("2026-11-21"), clientId: "c1", amount: "2000", sessionsPurchased: "2" };
    expect(validateAddPayment(filled)).toMatchObject({ ok: true, payload: { validityMonths: null } });
    expect(validateAddPayment({ ...filled, validityMonths: "3" })).toMatchObject({ ok: true, payload: { validityMonths: 3 } });
    expect(validateAddPayment({ ...filled, validityMonths: "61" })).toEqual({ ok: false, errors: { validityMonths: VALIDITY_MESSAGE }, message: VALIDITY_MESSAGE });
  });

  it("puts the months picked in the Add User body", () => {
    const user = { ...createUserDefaults("2026-11-21"), fullName: "Mona Adel", email: "mona@example.com", password: "s3cret-pass", initialCredits: "2" };
    expect(validateCreateUser(user)).toMatchObject({ ok: true, payload: { validityMonths: null } });
    expect(validateCreateUser({ ...user, validityMonths: "12" })).toMatchObject({ ok: true, payload: { validityMonths: 12 } });
    expect(validateCreateUser({ ...user, validityMonths: "0" })).toMatchObject({ ok: false, errors: { validityMonths: VALIDITY_MESSAGE } });
  });
});

import { defaultValidityLabel } from "./ValidityField";

describe("the validity picker's default choice", () => {
  it("names the settings' default when the page carries it", () => {
    expect(defaultValidityLabel(6)).toBe("Default: 6 months (site settings)");
    expect(defaultValidityLabel(1)).toBe("Default: 1 month (site settings)");
    expect(defaultValidityLabel(null)).toBe("Default (site settings)");
  });
});
