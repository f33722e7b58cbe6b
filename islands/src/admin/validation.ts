// The admin forms' rules and messages (spec §5) as zod schemas: each takes the form's raw values
// (the strings the inputs hold, ./fields) and gives the JSON body the API expects, or the
// messages to put on the fields. The forms use them through zodResolver (lib/form); the
// `validate…` functions say the same as plain data, so the rules are tested without a browser.
import * as z from "zod/mini";
import { DAY, EMAIL, type Errors, firstOf, parseForm } from "../lib/validate";
import {
  type AddPaymentForm,
  type AddPaymentPayload,
  BOOKING_STATUSES,
  CREATE_USER_FIELDS,
  type CreateUserForm,
  type CreateUserPayload,
  type ExportRange,
  PAYMENT_METHODS,
  PHONE_BOOKING_FIELDS,
  type PhoneBookingForm,
  type PhoneBookingPayload,
  REQUIRED_FIELD,
  ROLES,
  USER_PAYMENT_METHODS,
  addPaymentMessage,
} from "./fields";
import { VALIDITY_MESSAGE, validityMonthsOf } from "./helpers";

export * from "./fields";
export { EMAIL };
export type { Errors };

export type Checked<P, K extends string> = { ok: true; payload: P } | { ok: false; errors: Errors<K>; message: string };

/** The schema's verdict with the first message in the form's order (the one a notice repeats). */
function verdict<In extends object, P>(schema: z.ZodMiniType<P, In>, form: In, order: readonly (keyof In & string)[]): Checked<P, keyof In & string> {
  const r = parseForm(schema, form);
  return r.ok ? { ok: true, payload: r.value } : { ok: false, errors: r.errors, message: firstOf(r.errors, order) ?? "" };
}

/** "" → fallback; otherwise the number the text spells (NaN when it spells none). */
function numberOf(text: string, fallback: number): number {
  const t = text.trim();
  return t === "" ? fallback : Number(t);
}

const atLeastZero = (n: number) => Number.isFinite(n) && n >= 0;
const validity = z.string().check(z.refine((t) => validityMonthsOf(t) !== undefined, VALIDITY_MESSAGE));
/** The first message a check fails with wins, so a list of checks reads as "if … else if …". */
const refine = <T>(ok: (v: T) => boolean, message: string) => z.refine<T>(ok, message);
/** An object's check whose message lands on one field (a rule across fields). */
const on = <T>(field: keyof T & string, ok: (v: T) => boolean, message: string) => z.refine<T>(ok, { message, path: [field] });

// ---------------------------------------------------------------- create user (§3, §5)

const credits = (f: Pick<CreateUserForm, "initialCredits">) => numberOf(f.initialCredits, 0);
const paid = (f: Pick<CreateUserForm, "paymentAmount">) => numberOf(f.paymentAmount, 0);

export const createUserSchema = z.pipe(
  z
    .object({
      fullName: z.string().check(z.trim(), z.minLength(2, "Full name must be at least 2 characters")),
      email: z.string().check(z.trim(), z.regex(EMAIL, "Invalid email address")),
      phone: z.string(),
      role: z.enum(ROLES, "Role must be admin or client"),
      password: z.string().check(z.minLength(6, "Password must be at least 6 characters")),
      initialCredits: z.string().check(
        refine((t) => atLeastZero(numberOf(t, 0)), "Initial credits must be 0 or more"),
        refine((t) => Number.isInteger(numberOf(t, 0)), "Initial credits must be a whole number"),
      ),
      paymentAmount: z.string().check(refine((t) => atLeastZero(numberOf(t, 0)), "Payment amount must be 0 or more")),
      paymentMethod: z.enum(USER_PAYMENT_METHODS, "Payment method must be cash, card, bank_transfer or other"),
      paymentDate: z.string().check(z.regex(DAY, "Payment date must be a date (YYYY-MM-DD)")),
      paymentNotes: z.string(),
      validityMonths: validity,
    })
    .check(
      // A client who paid gets credits for it (an admin account has none).
      on(
        "initialCredits",
        (f) => {
          const valid = Number.isInteger(credits(f)) && credits(f) >= 0 && atLeastZero(paid(f));
          return !(valid && f.role === "client" && paid(f) > 0 && credits(f) <= 0);
        },
        "Initial credits must be greater than 0 when payment amount is provided",
      ),
    ),
  z.transform(
    (f): CreateUserPayload => ({
      fullName: f.fullName.trim(),
      email: f.email.trim(),
      phone: f.phone.trim() || null,
      role: f.role,
      password: f.password,
      initialCredits: credits(f),
      paymentAmount: paid(f),
      paymentMethod: f.paymentMethod,
      paymentDate: f.paymentDate,
      // null: the credits last the settings' default (credits.default_validity_months).
      validityMonths: validityMonthsOf(f.validityMonths) ?? null,
      paymentNotes: f.paymentNotes.trim() || null,
    }),
  ),
);

export function validateCreateUser(form: CreateUserForm): Checked<CreateUserPayload, keyof CreateUserForm> {
  return verdict(createUserSchema, form, CREATE_USER_FIELDS);
}

// ---------------------------------------------------------------- phone booking (§4, §5)

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

export const phoneBookingSchema = z.pipe(
  z.object({
    clientId: z.string().check(z.minLength(1, "Please select a client")),
    sessionDate: z.string().check(z.regex(DAY, "Session date is required")),
    sessionTime: z.string().check(z.regex(/^\d{2}:\d{2}(:\d{2})?$/, "Session time is required")),
    status: z.enum(BOOKING_STATUSES, "Status must be confirmed, completed, cancelled or no_show"),
    googleMeetLink: z.string().check(z.refine(isUrlOrEmpty, "Meet link must be a URL")),
    sessionNotes: z.string(),
  }),
  z.transform(
    (f): PhoneBookingPayload => ({
      clientId: f.clientId,
      sessionDate: f.sessionDate,
      // HH:MM; the API saves the date plus the time with seconds.
      sessionTime: f.sessionTime.slice(0, 5),
      status: f.status,
      googleMeetLink: f.googleMeetLink.trim() || null,
      sessionNotes: f.sessionNotes.trim() || null,
    }),
  ),
);

export function validatePhoneBooking(form: PhoneBookingForm): Checked<PhoneBookingPayload, keyof PhoneBookingForm> {
  return verdict(phoneBookingSchema, form, PHONE_BOOKING_FIELDS);
}

// ---------------------------------------------------------------- add payment (§5)

const REQUIRED = ["clientId", "amount", "sessionsPurchased", "paymentDate"] as const;
const required = z.string().check(z.refine((t) => t.trim() !== "", REQUIRED_FIELD));
/** Until every required field is filled in, their messages are the only ones. */
const filled = (f: AddPaymentForm) => REQUIRED.every((k) => f[k].trim() !== "");
const whenFilled = (field: keyof AddPaymentForm, ok: (f: AddPaymentForm) => boolean, message: string) =>
  on<AddPaymentForm>(field, (f) => !filled(f) || ok(f), message);

/** 2-decimal steps: 4500.5 and 4500.50 pass, 4500.505 does not. */
function inCents(amount: number): boolean {
  return Number.isFinite(amount) && amount >= 0 && Math.abs(Math.round(amount * 100) - amount * 100) <= 1e-6;
}

export const addPaymentSchema = z.pipe(
  z
    .object({
      clientId: required,
      amount: required,
      sessionsPurchased: required,
      paymentDate: required,
      paymentMethod: z.string() as z.ZodMiniType<AddPaymentForm["paymentMethod"], AddPaymentForm["paymentMethod"]>,
      referenceNumber: z.string(),
      notes: z.string(),
      validityMonths: z.string(),
    })
    .check(
      whenFilled("amount", (f) => inCents(Number(f.amount.trim())), "Amount must be 0 or more, in steps of 0.01"),
      whenFilled(
        "sessionsPurchased",
        (f) => {
          const n = Number(f.sessionsPurchased.trim());
          return Number.isInteger(n) && n >= 1;
        },
        "Sessions purchased must be at least 1",
      ),
      whenFilled("paymentDate", (f) => DAY.test(f.paymentDate), "Payment date must be a date (YYYY-MM-DD)"),
      whenFilled(
        "paymentMethod",
        (f) => (PAYMENT_METHODS as readonly string[]).includes(f.paymentMethod),
        "Payment method must be bank_transfer, credit_card, cash, check, paypal or other",
      ),
      whenFilled("validityMonths", (f) => validityMonthsOf(f.validityMonths) !== undefined, VALIDITY_MESSAGE),
    ),
  z.transform((f): AddPaymentPayload => {
    const amount = Number(f.amount.trim());
    return {
      clientId: f.clientId,
      amount: Math.round(amount * 100) / 100,
      sessionsPurchased: Number(f.sessionsPurchased.trim()),
      paymentDate: f.paymentDate,
      paymentMethod: f.paymentMethod,
      referenceNumber: f.referenceNumber.trim() || null,
      notes: f.notes.trim() || null,
      // null: the credits last the settings' default (credits.default_validity_months).
      validityMonths: validityMonthsOf(f.validityMonths) ?? null,
    };
  }),
);

export function validateAddPayment(form: AddPaymentForm): Checked<AddPaymentPayload, keyof AddPaymentForm> {
  const r = parseForm(addPaymentSchema, form);
  return r.ok ? { ok: true, payload: r.value } : { ok: false, errors: r.errors, message: addPaymentMessage(r.errors) ?? "" };
}


// ---------------------------------------------------------------- accounting export

/** Both days, the last one on or after the first; the message goes under the last day. */
export const exportRangeSchema = z.object({ from: z.string(), to: z.string() }).check(
  on<ExportRange>("to", (r) => r.from !== "" && r.to !== "", "Choose both dates"),
  on<ExportRange>("to", (r) => r.from === "" || r.to === "" || r.to >= r.from, "The last day must be on or after the first day"),
);
