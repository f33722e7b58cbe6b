// The form layer's rules: each schema's spec messages, on the field the form shows them under.
import { describe, expect, it } from "vitest";
import { exportRangeSchema } from "../src/admin/validation";
import { newPasswordSchema, signInSchema, signUpSchema } from "../src/lib/auth-rules";
import { lazySchema } from "../src/lib/form";
import { parseForm } from "../src/lib/validate";
import { buyerSchema } from "../src/purchase/PurchaseForm";

describe("sign in and sign up (spec §5, §8)", () => {
  it("asks for an email and a password", () => {
    expect(parseForm(signInSchema, { email: " ", password: "" })).toEqual({ ok: false, errors: { email: "Email is required", password: "Password is required" } });
    expect(parseForm(signInSchema, { email: "not-an-email", password: "x" })).toEqual({ ok: false, errors: { email: "Invalid email address" } });
  });

  it("sends the email trimmed and the password as typed", () => {
    expect(parseForm(signInSchema, { email: " mona@example.com ", password: " secret " })).toEqual({ ok: true, value: { email: "mona@example.com", password: " secret " } });
  });

  it("needs a name and a password of 6 characters to sign up; the phone is optional", () => {
    expect(parseForm(signUpSchema, { fullName: "  ", email: "mona@example.com", password: "12345", phone: "" })).toEqual({
      ok: false,
      errors: { fullName: "Full name is required", password: "Password must be at least 6 characters" },
    });
    expect(parseForm(signUpSchema, { fullName: " Mona ", email: "mona@example.com", password: "123456", phone: " " })).toMatchObject({ ok: true, value: { fullName: "Mona", phone: "" } });
  });

  it("words the new password's rule as the sign-up does", () => {
    expect(parseForm(newPasswordSchema, { password: "12345" })).toEqual({ ok: false, errors: { password: "Password must be at least 6 characters" } });
  });
});

describe("the buyer's details before PayTabs (spec §2)", () => {
  it("requires each field, with its own message", () => {
    expect(parseForm(buyerSchema, { name: " ", email: "", phone: "  " })).toEqual({
      ok: false,
      errors: { name: "Full name is required", email: "Email is required", phone: "Phone number is required" },
    });
    expect(parseForm(buyerSchema, { name: " Mona ", email: "m@example.com", phone: " +20 1 " })).toEqual({ ok: true, value: { name: "Mona", email: "m@example.com", phone: "+20 1" } });
  });
});

describe("the accounting export's date range", () => {
  it("puts the range's message under the last day", () => {
    expect(parseForm(exportRangeSchema, { from: "", to: "2026-11-30" })).toEqual({ ok: false, errors: { to: "Choose both dates" } });
    expect(parseForm(exportRangeSchema, { from: "2026-11-01", to: "" })).toEqual({ ok: false, errors: { to: "Choose both dates" } });
    expect(parseForm(exportRangeSchema, { from: "2026-11-02", to: "2026-11-01" })).toEqual({ ok: false, errors: { to: "The last day must be on or after the first day" } });
    expect(parseForm(exportRangeSchema, { from: "2026-11-01", to: "2026-11-01" }).ok).toBe(true);
  });
});

describe("lazy schemas", () => {
  it("load once, and again after a failure", async () => {
    let calls = 0;
    const load = lazySchema(async () => {
      calls += 1;
      if (calls === 1) throw new Error("offline");
      return signInSchema;
    });
    await expect(load()).rejects.toThrow("offline");
    expect(await load()).toBe(signInSchema);
    expect(await load()).toBe(signInSchema);
    expect(calls).toBe(2);
  });
});
