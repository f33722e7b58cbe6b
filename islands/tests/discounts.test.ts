// The New discount code form's rules (admin/DiscountsTab): the API's rules checked before
// sending, each message on its field, the body the API takes (only the kind's own value, the
// code upper case, empty fields as null), the packages read from /catalogue.json in the page's
// language, and the API's messages in Arabic.
import { describe, expect, it } from "vitest";
import { type DiscountValues, apiMessage, discountDefaults, discountSchema, packagesOf } from "../src/admin/DiscountsTab";
import { loadMessages } from "../src/lib/i18n";
import { parseForm } from "../src/lib/validate";

const check = (values: Partial<DiscountValues>) => parseForm(discountSchema, { ...discountDefaults(), code: "spring10", value: "10", ...values });
const errorsOf = (values: Partial<DiscountValues>) => {
  const r = check(values);
  return r.ok ? {} : r.errors;
};

describe("the New discount code form", () => {
  it("sends a percent code with only its percent, upper case, empty fields as null", () => {
    expect(check({ code: " spring10 " })).toEqual({
      ok: true,
      value: { code: "SPRING10", kind: "percent", percent: 10, packageIds: [], validFrom: null, validTo: null, maxUses: null, oncePerClient: false },
    });
  });

  it("sends a fixed amount in pounds with the packages, days, uses and once per client", () => {
    const r = check({ kind: "fixed", value: "250.50", packageIds: ["individual-5"], validFrom: "2026-05-01", validTo: "2026-05-01", maxUses: "20", oncePerClient: true });
    expect(r).toEqual({
      ok: true,
      value: {
        code: "SPRING10",
        kind: "fixed",
        amountOff: 250.5,
        packageIds: ["individual-5"],
        validFrom: "2026-05-01",
        validTo: "2026-05-01",
        maxUses: 20,
        oncePerClient: true,
      },
    });
    expect(r.ok && "percent" in r.value).toBe(false);
  });

  it("refuses a percentage outside 1 to 100 or not whole", () => {
    for (const value of ["0", "101", "-5", "12.5", "", "ten"]) {
      expect(errorsOf({ value }), value).toEqual({ value: "Percent must be a whole number from 1 to 100" });
    }
    expect(check({ value: "100" }).ok).toBe(true);
  });

  it("refuses an amount of 0 or less, with more than two decimals, or too large", () => {
    for (const value of ["0", "-1", "0.00", "10.005", "", "1e3"]) {
      expect(errorsOf({ kind: "fixed", value }), value).toEqual({ value: "Amount off must be more than 0, in steps of 0.01" });
    }
    expect(errorsOf({ kind: "fixed", value: "10000000.01" })).toEqual({ value: "Amount off must be at most 10,000,000.00" });
    expect(check({ kind: "fixed", value: "0.01" }).ok).toBe(true);
  });

  it("refuses a missing or malformed code", () => {
    expect(errorsOf({ code: "  " })).toEqual({ code: "Enter a code" });
    for (const code of ["ab", "SPRING SALE", "خصم10", "A".repeat(33)]) {
      expect(errorsOf({ code }), code).toEqual({ code: "Code must be 3 to 32 characters: letters A-Z, digits, - or _" });
    }
  });

  it("refuses a last day before the first, and total uses under 1", () => {
    expect(errorsOf({ validFrom: "2026-05-02", validTo: "2026-05-01" })).toEqual({ validTo: "Valid until must be on or after valid from" });
    expect(check({ validTo: "2026-05-01" }).ok).toBe(true);
    for (const maxUses of ["0", "-1", "2.5"]) expect(errorsOf({ maxUses }), maxUses).toEqual({ maxUses: "Total uses must be a whole number, at least 1" });
    expect(errorsOf({ maxUses: "1000001" })).toEqual({ maxUses: "Total uses must be at most 1,000,000" });
  });

  it("names every wrong field at once", () => {
    expect(Object.keys(errorsOf({ code: "x", value: "0", maxUses: "0" })).sort()).toEqual(["code", "maxUses", "value"]);
  });
});

describe("the packages and the API's words", () => {
  const catalogue = {
    packages: [
      { id: "individual-5", name: "Momentum", names: { ar: "الزخم" }, sessions: 5, is_active: true },
      { id: "individual-3", name: "Retired", sessions: 3, is_active: false },
      { name: "no id" },
    ],
  };

  it("reads the catalogue's packages, named in the page's language", async () => {
    expect(packagesOf(catalogue)).toEqual([
      { id: "individual-5", name: "Momentum", sessions: 5, active: true },
      { id: "individual-3", name: "Retired", sessions: 3, active: false },
    ]);
    expect(packagesOf(null)).toEqual([]);
    await loadMessages(["discounts"], "ar");
    expect(packagesOf(catalogue)[0]?.name).toBe("الزخم");
  });

  it("shows the API's messages about a code in Arabic on an Arabic page", async () => {
    expect(apiMessage("This code is already taken")).toBe("This code is already taken");
    await loadMessages(["discounts"], "ar");
    expect(apiMessage("This code is already taken")).toBe("هذا الكود مستخدم بالفعل");
    expect(apiMessage("Unknown package: gold")).toBe("إحدى الباقات لم تعد متاحة للبيع. يُرجى إعادة تحميل الصفحة.");
    expect(apiMessage("Something else")).toBe("Something else");
  });
});
