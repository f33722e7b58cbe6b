// The admin forms' rules and messages (spec §5) as pure functions of the raw form values (the
// strings the inputs hold), so they can be tested without a browser. Each returns the JSON body
// the API expects, or the messages to put on the fields.
import * as z from "zod/mini";
import type { AddPaymentBody, Complete, CreateUserBody, PhoneBookingBody } from "../api/types";
import { EMAIL, zodErrors } from "../lib/validate";
import { type Errors, VALIDITY_MESSAGE, today, validityMonthsOf } from "./helpers";

export type { Errors };

export type Checked<P, K extends string> = { ok: true; payload: P } | { ok: false; errors: Errors<K>; message: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "" → fallback; otherwise the number the text spells (NaN when it spells none). */
function numberOf(text: string, fallback: number): number {
  const t = text.trim();
  return t === "" ? fallback : Number(t);
}

function finish<P, K extends string>(order: readonly K[], errors: Errors<K>, payload: () => P): Checked<P, K> {
  const first = order.map((k) => errors[k]).find((m): m is string => !!m);
  return first ? { ok: false, errors, message: first } : { ok: true, payload: payload() };
}

export { EMAIL, zodErrors };

// ---------------------------------------------------------------- create user (§3, §5)

export const ROLES = ["client", "admin"] as const;
export const USER_PAYMENT_METHODS = ["cash", "card", "bank_transfer", "other"] as const;
export type UserRole = (typeof ROLES)[number];
export type UserPaymentMethod = (typeof USER_PAYMENT_METHODS)[number];

export interface CreateUserForm {
  fullName: string;
  email: string;
  phone: string;
  role: UserRole;
  password: string;
  initialCredits: string;
  paymentAmount: string;
  paymentMethod: UserPaymentMethod;
  paymentDate: string;
  paymentNotes: string;
  /** Months the initial credits last; "" for the settings' default. */
  validityMonths: string;
}

/** POST /api/admin/users, with the choices the form offers. */
export type CreateUserPayload = Complete<CreateUserBody, "phone" | "paymentNotes" | "validityMonths"> & {
  role: UserRole;
  paymentMethod: UserPaymentMethod;
};

export const CREATE_USER_FIELDS = [
  "fullName",
  "email",
  "phone",
  "role",
  "password",
  "initialCredits",
  "paymentAmount",
  "paymentMethod",
  "paymentDate",
  "paymentNotes",
  "validityMonths",
] as const satisfies readonly (keyof CreateUserForm)[];

/** Role client, 0 credits, 0 paid in cash today. */
export function createUserDefaults(day: string = today()): CreateUserForm {
  return {
    fullName: "",
    email: "",
    phone: "",
    role: "client",
    password: "",
    initialCredits: "0",
    paymentAmount: "0",
    paymentMethod: "cash",
    paymentDate: day,
    paymentNotes: "",
    validityMonths: "",
  };
}

const createUserText = z.object({
  fullName: z.string().check(z.trim(), z.minLength(2, "Full name must be at least 2 characters")),
  email: z.string().check(z.trim(), z.regex(EMAIL, "Invalid email address")),
  role: z.enum(ROLES, "Role must be admin or client"),
  password: z.string().check(z.minLength(6, "Password must be at least 6 characters")),
  paymentMethod: z.enum(USER_PAYMENT_METHODS, "Payment method must be cash, card, bank_transfer or other"),
  paymentDate: z.string().check(z.regex(DAY, "Payment date must be a date (YYYY-MM-DD)")),
});

export function validateCreateUser(form: CreateUserForm): Checked<CreateUserPayload, keyof CreateUserForm> {
  const errors: Errors<keyof CreateUserForm> = { ...zodErrors(createUserText, form) };
  const credits = numberOf(form.initialCredits, 0);
  const amount = numberOf(form.paymentAmount, 0);
  if (!Number.isFinite(credits) || credits < 0) errors.initialCredits = "Initial credits must be 0 or more";
  else if (!Number.isInteger(credits)) errors.initialCredits = "Initial credits must be a whole number";
  if (!Number.isFinite(amount) || amount < 0) errors.paymentAmount = "Payment amount must be 0 or more";
  if (!errors.initialCredits && !errors.paymentAmount && form.role === "client" && amount > 0 && credits <= 0) {
    errors.initialCredits = "Initial credits must be greater than 0 when payment amount is provided";
  }
  const validityMonths = validityMonthsOf(form.validityMonths);
  if (validityMonths === undefined) errors.validityMonths = VALIDITY_MESSAGE;
  return finish(CREATE_USER_FIELDS, errors, () => ({
    fullName: form.fullName.trim(),
    email: form.email.trim(),
    phone: form.phone.trim() || null,
    role: form.role,
    password: form.password,
    initialCredits: credits,
    paymentAmount: amount,
    paymentMethod: form.paymentMethod,
    paymentDate: form.paymentDate,
    // null: the credits last the settings' default (credits.default_validity_months).
    validityMonths: validityMonths ?? null,
    paymentNotes: form.paymentNotes.trim() || null,
  }));
}

// ---------------------------------------------------------------- phone booking (§4, §5)

export const BOOKING_STATUSES = ["confirmed", "completed", "cancelled", "no_show"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface PhoneBookingForm {
  clientId: string;
  sessionDate: string;
  sessionTime: string;
  status: BookingStatus;
  googleMeetLink: string;
  sessionNotes: string;
}

/** POST /api/admin/bookings, with the statuses the form offers. */
export type PhoneBookingPayload = Complete<PhoneBookingBody, "googleMeetLink" | "sessionNotes"> & { status: BookingStatus };

export const PHONE_BOOKING_FIELDS = [
  "clientId",
  "sessionDate",
  "sessionTime",
  "status",
  "googleMeetLink",
  "sessionNotes",
] as const satisfies readonly (keyof PhoneBookingForm)[];

export function phoneBookingDefaults(clientId = ""): PhoneBookingForm {
  return { clientId, sessionDate: "", sessionTime: "", status: "confirmed", googleMeetLink: "", sessionNotes: "" };
}

/** An http(s) address (the API accepts only those), or nothing. */
export function isUrlOrEmpty(text: string): boolean {
  const t = text.trim();
  if (t === "") return true;
  try {
    const u = new URL(t);
    return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
  } catch {
    return false;
  }
}

const phoneBookingSchema = z.object({
  clientId: z.string().check(z.minLength(1, "Please select a client")),
  sessionDate: z.string().check(z.minLength(1, "Session date is required")),
  sessionTime: z.string().check(z.minLength(1, "Session time is required")),
  status: z.enum(BOOKING_STATUSES, "Status must be confirmed, completed, cancelled or no_show"),
  googleMeetLink: z.string().check(z.refine(isUrlOrEmpty, "Meet link must be a URL")),
  sessionNotes: z.string(),
});

export function validatePhoneBooking(form: PhoneBookingForm): Checked<PhoneBookingPayload, keyof PhoneBookingForm> {
  const errors: Errors<keyof PhoneBookingForm> = { ...zodErrors(phoneBookingSchema, form) };
  if (!errors.sessionDate && !DAY.test(form.sessionDate)) errors.sessionDate = "Session date is required";
  if (!errors.sessionTime && !/^\d{2}:\d{2}(:\d{2})?$/.test(form.sessionTime)) errors.sessionTime = "Session time is required";
  return finish(PHONE_BOOKING_FIELDS, errors, () => ({
    clientId: form.clientId,
    sessionDate: form.sessionDate,
    // HH:MM; the API saves the date plus the time with seconds.
    sessionTime: form.sessionTime.slice(0, 5),
    status: form.status,
    googleMeetLink: form.googleMeetLink.trim() || null,
    sessionNotes: form.sessionNotes.trim() || null,
  }));
}

// ---------------------------------------------------------------- add payment (§5)

export const PAYMENT_METHODS = ["bank_transfer", "credit_card", "cash", "check", "paypal", "other"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface AddPaymentForm {
  clientId: string;
  amount: string;
  sessionsPurchased: string;
  paymentDate: string;
  paymentMethod: PaymentMethod;
  referenceNumber: string;
  notes: string;
  /** Months the credits last from the payment date; "" for the settings' default. */
  validityMonths: string;
}

/** POST /api/admin/payments, with the methods the form offers. */
export type AddPaymentPayload = Complete<AddPaymentBody, "referenceNumber" | "notes" | "validityMonths"> & { paymentMethod: PaymentMethod };

export const ADD_PAYMENT_FIELDS = [
  "clientId",
  "amount",
  "sessionsPurchased",
  "paymentDate",
  "paymentMethod",
  "referenceNumber",
  "notes",
  "validityMonths",
] as const satisfies readonly (keyof AddPaymentForm)[];

export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields";

export function addPaymentDefaults(day: string = today()): AddPaymentForm {
  return { clientId: "", amount: "", sessionsPurchased: "1", paymentDate: day, paymentMethod: "bank_transfer", referenceNumber: "", notes: "", validityMonths: "" };
}

export function validateAddPayment(form: AddPaymentForm): Checked<AddPaymentPayload, keyof AddPaymentForm> {
  const errors: Errors<keyof AddPaymentForm> = {};
  const required = ["clientId", "amount", "sessionsPurchased", "paymentDate"] as const;
  const missing = required.filter((k) => form[k].trim() === "");
  if (missing.length > 0) {
    for (const k of missing) errors[k] = "This field is required";
    return { ok: false, errors, message: REQUIRED_FIELDS_MESSAGE };
  }
  const amount = Number(form.amount.trim());
  const sessionsPurchased = Number(form.sessionsPurchased.trim());
  // 2-decimal steps: 4500.5 and 4500.50 pass, 4500.505 does not.
  if (!Number.isFinite(amount) || amount < 0 || Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6) {
    errors.amount = "Amount must be 0 or more, in steps of 0.01";
  }
  if (!Number.isInteger(sessionsPurchased) || sessionsPurchased < 1) errors.sessionsPurchased = "Sessions purchased must be at least 1";
  if (!DAY.test(form.paymentDate)) errors.paymentDate = "Payment date must be a date (YYYY-MM-DD)";
  if (!(PAYMENT_METHODS as readonly string[]).includes(form.paymentMethod)) {
    errors.paymentMethod = "Payment method must be bank_transfer, credit_card, cash, check, paypal or other";
  }
  const validityMonths = validityMonthsOf(form.validityMonths);
  if (validityMonths === undefined) errors.validityMonths = VALIDITY_MESSAGE;
  return finish(ADD_PAYMENT_FIELDS, errors, () => ({
    clientId: form.clientId,
    amount: Math.round(amount * 100) / 100,
    sessionsPurchased,
    paymentDate: form.paymentDate,
    paymentMethod: form.paymentMethod,
    referenceNumber: form.referenceNumber.trim() || null,
    notes: form.notes.trim() || null,
    // null: the credits last the settings' default (credits.default_validity_months).
    validityMonths: validityMonths ?? null,
  }));
}
