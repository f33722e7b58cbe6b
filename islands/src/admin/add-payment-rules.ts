// The rules and messages of Add Payment (spec §5) as a zod schema from the form's raw values
// (./fields) to the API's body. /admin/add-payment loads this module on the form's first focus
// or hover (../admin/AddPaymentForm); ./validation re-exports it for the checks as plain data.
import * as z from "zod/mini";
import { DAY, msg } from "../lib/validate";
import { type AddPaymentForm, type AddPaymentPayload, PAYMENT_METHODS } from "./fields";
import { validityMonthsOf } from "./helpers";

type Message = ReturnType<typeof msg>;
/** An object's check whose message lands on one field (a rule across fields). */
const on = <T>(field: keyof T & string, ok: (v: T) => boolean, message: Message) => z.refine<T>(ok, { ...message, path: [field] });

const REQUIRED = ["clientId", "amount", "sessionsPurchased", "paymentDate"] as const;
const required = z.string().check(z.refine((t) => t.trim() !== "", msg("admin.rule.required")));
/** Until every required field is filled in, their messages are the only ones. */
const filled = (f: AddPaymentForm) => REQUIRED.every((k) => f[k].trim() !== "");
const whenFilled = (field: keyof AddPaymentForm, ok: (f: AddPaymentForm) => boolean, message: Message) =>
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
      whenFilled("amount", (f) => inCents(Number(f.amount.trim())), msg("admin.rule.amountSteps", { step: "0.01" })),
      whenFilled(
        "sessionsPurchased",
        (f) => {
          const n = Number(f.sessionsPurchased.trim());
          return Number.isInteger(n) && n >= 1;
        },
        msg("admin.rule.sessionsMin"),
      ),
      whenFilled("paymentDate", (f) => DAY.test(f.paymentDate), msg("admin.rule.paymentDate")),
      whenFilled(
        "paymentMethod",
        (f) => (PAYMENT_METHODS as readonly string[]).includes(f.paymentMethod),
        msg("admin.rule.method"),
      ),
      whenFilled("validityMonths", (f) => validityMonthsOf(f.validityMonths) !== undefined, msg("admin.rule.validity")),
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

