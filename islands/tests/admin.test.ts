import { urlOf } from "../src/lib/api";
import { describe, expect, it } from "vitest";
import {
  badgeVariant,
  canCancel,
  canMarkNoShow,
  fieldErrors,
  hasCredits,
  label,
  needsAttention,
  statusLabel,
  suggestedClient,
  today,
} from "../src/admin/helpers";
import {
  CREATE_USER_FIELDS,
  type CreateUserForm,
  type PhoneBookingForm,
  requiredFieldsMessage,
  addPaymentDefaults,
  createUserDefaults,
  isUrlOrEmpty,
  phoneBookingDefaults,
  validateAddPayment,
  validateCreateUser,
  validatePhoneBooking,
} from "../src/admin/validation";

const user = (over: Partial<CreateUserForm> = {}): CreateUserForm => ({
  ...createUserDefaults("2026-11-21"),
  fullName: "Mona Adel",
  email: "mona@example.com",
  password: "s3cret-pass",
  ...over,
});

const booking = (over: Partial<PhoneBookingForm> = {}): PhoneBookingForm => ({
  ...phoneBookingDefaults("c1"),
  sessionDate: "2026-12-01",
  sessionTime: "10:30",
  ...over,
});

describe("create user (spec §5)", () => {
  it("defaults to a client with 0 credits paid 0 in cash today", () => {
    expect(createUserDefaults("2026-11-21")).toMatchObject({
      role: "client",
      initialCredits: "0",
      paymentAmount: "0",
      paymentMethod: "cash",
      paymentDate: "2026-11-21",
    });
  });

  it("builds the create-user payload with numbers and nulls for empty optional fields", () => {
    const r = validateCreateUser(user({ fullName: "  Mona Adel ", phone: " ", initialCredits: "5", paymentAmount: "4500.50", paymentNotes: "" }));
    expect(r).toEqual({
      ok: true,
      payload: {
        fullName: "Mona Adel",
        email: "mona@example.com",
        phone: null,
        role: "client",
        password: "s3cret-pass",
        initialCredits: 5,
        paymentAmount: 4500.5,
        paymentMethod: "cash",
        paymentDate: "2026-11-21",
        paymentNotes: null,
        validityMonths: null,
        // The admin page's language (English here) unless the admin picks another.
        language: "en",
      },
    });
    expect(validateCreateUser(user({ language: "ar" }))).toMatchObject({ ok: true, payload: { language: "ar" } });
  });

  it("uses the spec's messages", () => {
    const r = validateCreateUser(user({ fullName: " M ", email: "not-an-email", password: "12345" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.fullName).toBe("Full name must be at least 2 characters");
    expect(r.errors.email).toBe("Invalid email address");
    expect(r.errors.password).toBe("Password must be at least 6 characters");
    expect(r.message).toBe("Full name must be at least 2 characters");
  });

  it("needs credits when a client paid something, but not for an admin", () => {
    const client = validateCreateUser(user({ paymentAmount: "100", initialCredits: "0" }));
    expect(client.ok).toBe(false);
    if (!client.ok) expect(client.errors.initialCredits).toBe("Initial credits must be greater than 0 when payment amount is provided");
    expect(validateCreateUser(user({ role: "admin", paymentAmount: "100", initialCredits: "0" })).ok).toBe(true);
    expect(validateCreateUser(user({ paymentAmount: "0", initialCredits: "0" })).ok).toBe(true);
    expect(validateCreateUser(user({ paymentAmount: "", initialCredits: "" })).ok).toBe(true);
  });

  it("refuses negative or fractional numbers", () => {
    const r = validateCreateUser(user({ initialCredits: "-1", paymentAmount: "-5" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.initialCredits).toBe("Initial credits must be 0 or more");
    expect(r.errors.paymentAmount).toBe("Payment amount must be 0 or more");
    const half = validateCreateUser(user({ initialCredits: "1.5" }));
    expect(half.ok || half.errors.initialCredits).toBe("Initial credits must be a whole number");
  });

  it("keeps only the server's field errors that belong to the form", () => {
    expect(fieldErrors({ email: "Taken", password: "Too common", other: "x" }, CREATE_USER_FIELDS)).toEqual({ email: "Taken", password: "Too common" });
  });
});

describe("phone booking (spec §5)", () => {
  it("defaults to confirmed", () => {
    expect(phoneBookingDefaults().status).toBe("confirmed");
  });

  it("requires a client, a date and a time with the spec's messages", () => {
    const r = validatePhoneBooking(phoneBookingDefaults());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toMatchObject({
      clientId: "Please select a client",
      sessionDate: "Session date is required",
      sessionTime: "Session time is required",
    });
    expect(r.message).toBe("Please select a client");
  });

  it("accepts a URL or nothing as the meet link", () => {
    expect(isUrlOrEmpty("")).toBe(true);
    expect(isUrlOrEmpty("https://meet.google.com/abc-defg-hij")).toBe(true);
    expect(isUrlOrEmpty("meet.google.com/abc")).toBe(false);
    expect(isUrlOrEmpty("javascript:alert(1)")).toBe(false);
    const bad = validatePhoneBooking(booking({ googleMeetLink: "not a url" }));
    expect(bad.ok || bad.errors.googleMeetLink).toBe("Meet link must be a URL");
  });

  it("builds the API body (HH:MM, nulls for empty link and notes)", () => {
    expect(validatePhoneBooking(booking({ sessionTime: "10:30:00", sessionNotes: "  Called in " }))).toEqual({
      ok: true,
      payload: { clientId: "c1", sessionDate: "2026-12-01", sessionTime: "10:30", status: "confirmed", googleMeetLink: null, sessionNotes: "Called in" },
    });
  });

  it("needs a client with credits left", () => {
    expect(hasCredits({ available_credits: 1 })).toBe(true);
    expect(hasCredits({ available_credits: 0 })).toBe(false);
    expect(hasCredits(undefined)).toBe(false);
  });
});

describe("add payment (spec §5)", () => {
  const filled = { ...addPaymentDefaults("2026-11-21"), clientId: "c1", amount: "4500.50", sessionsPurchased: "3" };

  it("asks for every required field with one message", () => {
    const r = validateAddPayment({ ...filled, clientId: "", amount: "", paymentDate: "" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toBe(requiredFieldsMessage());
    expect(requiredFieldsMessage()).toBe("Please fill in all required fields");
    expect(Object.keys(r.errors).sort()).toEqual(["amount", "clientId", "paymentDate"]);
  });

  it("takes 2-decimal amounts of 0 or more and at least 1 session", () => {
    expect(validateAddPayment({ ...filled, amount: "0" }).ok).toBe(true);
    const cents = validateAddPayment({ ...filled, amount: "10.005" });
    expect(cents.ok || cents.errors.amount).toBe("Amount must be 0 or more, in steps of 0.01");
    const none = validateAddPayment({ ...filled, sessionsPurchased: "0" });
    expect(none.ok || none.errors.sessionsPurchased).toBe("Sessions purchased must be at least 1");
  });

  it("builds the API body", () => {
    expect(validateAddPayment({ ...filled, referenceNumber: " TX-1 " })).toEqual({
      ok: true,
      payload: { clientId: "c1", amount: 4500.5, sessionsPurchased: 3, paymentDate: "2026-11-21", paymentMethod: "bank_transfer", referenceNumber: "TX-1", notes: null, validityMonths: null },
    });
  });
});

describe("admin views", () => {
  it("styles badges as the spec says: confirmed default, completed secondary, anything else destructive", () => {
    expect(badgeVariant("confirmed")).toBe("default");
    expect(badgeVariant("completed")).toBe("secondary");
    expect(badgeVariant("cancelled")).toBe("destructive");
    expect(badgeVariant("no_show")).toBe("destructive");
    expect(badgeVariant("pending")).toBe("destructive");
  });

  it("lets an admin cancel confirmed bookings and those that need attention, and mark no-shows once the session started", () => {
    expect(canCancel("confirmed")).toBe(true);
    expect(canCancel("pending")).toBe(true);
    expect(["completed", "cancelled", "no_show"].some(canCancel)).toBe(false);
    const now = new Date("2026-11-21T12:00:00Z");
    expect(canMarkNoShow({ status: "confirmed", sessionDate: "2026-11-21T08:00:00Z" }, now)).toBe(true);
    expect(canMarkNoShow({ status: "confirmed", sessionDate: "2026-11-22T08:00:00Z" }, now)).toBe(false);
    expect(canMarkNoShow({ status: "cancelled", sessionDate: "2026-11-20T08:00:00Z" }, now)).toBe(false);
  });

  it("shows a pending booking as Needs attention", () => {
    expect(needsAttention({ status: "pending" })).toBe(true);
    expect(needsAttention({ status: "confirmed" })).toBe(false);
    expect(statusLabel("pending")).toBe("Needs attention");
    expect(statusLabel("no_show")).toBe("No-show");
  });

  it("offers first the client whose email the invitee typed, or the client the booking names", () => {
    const clients = [
      { user_id: "a", email: "omar@example.com" },
      { user_id: "b", email: "Mona@Example.com" },
    ];
    expect(suggestedClient({ clientId: null, clientEmail: " mona@example.com" }, clients)?.user_id).toBe("b");
    expect(suggestedClient({ clientId: "a", clientEmail: "mona@example.com" }, clients)?.user_id).toBe("a");
    expect(suggestedClient({ clientId: null, clientEmail: "stranger@example.com" }, clients)).toBeUndefined();
    expect(suggestedClient({ clientId: null, clientEmail: null }, clients)).toBeUndefined();
  });

  it("labels values for people", () => {
    expect(label("bank_transfer")).toBe("Bank Transfer");
    expect(label("no_show")).toBe("No-show");
    expect(label("confirmed")).toBe("Confirmed");
    expect(label("paypal")).toBe("PayPal");
  });

  it("builds the API paths with the filters that are set", () => {
    expect(urlOf("/api/admin/clients", { query: { search: "" } })).toBe("/api/admin/clients");
    expect(urlOf("/api/admin/clients", { query: { search: "mona a" } })).toBe("/api/admin/clients?search=mona%20a");
    expect(urlOf("/api/admin/sessions", { query: { client_id: "", date: "" } })).toBe("/api/admin/sessions");
    expect(urlOf("/api/admin/sessions", { query: { client_id: "c1", date: "2026-11-22" } })).toBe("/api/admin/sessions?client_id=c1&date=2026-11-22");
    expect(urlOf("/api/admin/sessions", { query: { client_id: "", date: "2026-11-22" } })).toBe("/api/admin/sessions?date=2026-11-22");
    expect(urlOf("/api/admin/clients/{id}/lots", { path: { id: "a/b" } })).toBe("/api/admin/clients/a%2Fb/lots");
  });

  it("gives today's date as YYYY-MM-DD in local time", () => {
    expect(today(new Date(2026, 0, 5, 23, 30))).toBe("2026-01-05");
  });
});
