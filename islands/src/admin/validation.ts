// The admin forms' rules and messages (spec §5) as zod schemas: each takes the form's raw values
// (the strings the inputs hold, ./fields) and gives the JSON body the API expects, or the
// messages to put on the fields. The forms use them through zodResolver (lib/form); the
// `validate…` functions say the same as plain data, so the rules are tested without a browser.
import * as z from "zod/mini";
import { LANGUAGES } from "../lib/i18n";
import { DAY, EMAIL, type Errors, firstOf, msg, parseForm } from "../lib/validate";
import {
  type AddPaymentForm,
  type AddPaymentPayload,
  BOOKING_STATUSES,
  CREATE_USER_FIELDS,
  type CreateUserForm,
  type CreateUserPayload,
  type ExportRange,
  PHONE_BOOKING_FIELDS,
  type PhoneBookingForm,
  type PhoneBookingPayload,
  ROLES,
  USER_PAYMENT_METHODS,
  addPaymentMessage,
} from "./fields";
import { addPaymentSchema } from "./add-payment-rules";
import { validityMonthsOf } from "./helpers";

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
type Message = ReturnType<typeof msg>;
const VALIDITY = msg("admin.rule.validity");
const validity = z.string().check(z.refine((t) => validityMonthsOf(t) !== undefined, VALIDITY));
/** The first message a check fails with wins, so a list of checks reads as "if … else if …". */
const refine = <T>(ok: (v: T) => boolean, message: Message) => z.refine<T>(ok, message);
/** An object's check whose message lands on one field (a rule across fields). */
const on = <T>(field: keyof T & string, ok: (v: T) => boolean, message: Message) => z.refine<T>(ok, { ...message, path: [field] });

// ---------------------------------------------------------------- create user (§3, §5)

const credits = (f: Pick<CreateUserForm, "initialCredits">) => numberOf(f.initialCredits, 0);
const paid = (f: Pick<CreateUserForm, "paymentAmount">) => numberOf(f.paymentAmount, 0);

export const createUserSchema = z.pipe(
  z
    .object({
      fullName: z.string().check(z.trim(), z.minLength(2, msg("admin.rule.nameShort"))),
      email: z.string().check(z.trim(), z.regex(EMAIL, msg("admin.rule.emailInvalid"))),
      phone: z.string(),
      role: z.enum(ROLES, msg("admin.rule.role")),
      password: z.string().check(z.minLength(6, msg("admin.rule.passwordShort"))),
      initialCredits: z.string().check(
        refine((t) => atLeastZero(numberOf(t, 0)), msg("admin.rule.creditsNegative")),
        refine((t) => Number.isInteger(numberOf(t, 0)), msg("admin.rule.creditsWhole")),
      ),
      paymentAmount: z.string().check(refine((t) => atLeastZero(numberOf(t, 0)), msg("admin.rule.amountNegative"))),
      paymentMethod: z.enum(USER_PAYMENT_METHODS, msg("admin.rule.userMethod")),
      paymentDate: z.string().check(z.regex(DAY, msg("admin.rule.paymentDate"))),
      paymentNotes: z.string(),
      validityMonths: validity,
      language: z.enum(LANGUAGES, msg("admin.rule.language")),
    })
    .check(
      // A client who paid gets credits for it (an admin account has none).
      on(
        "initialCredits",
        (f) => {
          const valid = Number.isInteger(credits(f)) && credits(f) >= 0 && atLeastZero(paid(f));
          return !(valid && f.role === "client" && paid(f) > 0 && credits(f) <= 0);
        },
        msg("admin.rule.creditsForPayment"),
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
      language: f.language,
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
    clientId: z.string().check(z.minLength(1, msg("admin.rule.selectClient"))),
    sessionDate: z.string().check(z.regex(DAY, msg("admin.rule.sessionDate"))),
    sessionTime: z.string().check(z.regex(/^\d{2}:\d{2}(:\d{2})?$/, msg("admin.rule.sessionTime"))),
    status: z.enum(BOOKING_STATUSES, msg("admin.rule.status")),
    googleMeetLink: z.string().check(z.refine(isUrlOrEmpty, msg("admin.rule.meetLink"))),
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

// The schema is in ./add-payment-rules, which /admin/add-payment loads on its own.
export { addPaymentSchema };

export function validateAddPayment(form: AddPaymentForm): Checked<AddPaymentPayload, keyof AddPaymentForm> {
  const r = parseForm(addPaymentSchema, form);
  return r.ok ? { ok: true, payload: r.value } : { ok: false, errors: r.errors, message: addPaymentMessage(r.errors) ?? "" };
}


// ---------------------------------------------------------------- accounting export

/** Both days, the last one on or after the first; the message goes under the last day. */
export const exportRangeSchema = z.object({ from: z.string(), to: z.string() }).check(
  on<ExportRange>("to", (r) => r.from !== "" && r.to !== "", msg("admin.rule.bothDates")),
  on<ExportRange>("to", (r) => r.from === "" || r.to === "" || r.to >= r.from, msg("admin.rule.rangeOrder")),
);
