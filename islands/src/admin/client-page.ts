// The rules of the admin's client page forms (profile, credit adjustment, extending a lot,
// refunding a payment) as zod schemas from the raw input strings to the API's bodies. The
// forms use them through zodResolver (lib/form; the page's own forms load this module on
// intent, the dialogs with their code); the `check…` functions say the same as plain data, so
// the rules are tested without a browser. The labels and figures are in ./client/views.
import * as z from "zod/mini";
import type { AdjustCreditsBody, Complete, EditProfileBody, Refundable } from "../api/types";
import { formatMoney } from "../lib/format";
import { LANGUAGES, t } from "../lib/i18n";
import { type Errors, msg, parseForm } from "../lib/validate";
import { type AdjustForm, type ExtendForm, type ProfileForm, type RefundForm, dayParts, minorDigits } from "./client/views";

export * from "./client/views";

type Check<P, K extends string> = { ok: true; payload: P } | { ok: false; errors: Errors<K> };

function check<In extends object, P>(schema: z.ZodMiniType<P, In>, form: In): Check<P, keyof In & string> {
  const r = parseForm(schema, form);
  return r.ok ? { ok: true, payload: r.value } : r;
}

/** Characters as a person counts them (an emoji is one). */
const length = (t: string) => [...t].length;

export const profileSchema = z.pipe(
  z.object({
    fullName: z.string().check(z.refine((t) => t.trim().length >= 2, msg("admin.rule.nameShort"))),
    phone: z.string(),
    role: z.string().check(z.refine((r) => r === "client" || r === "admin", msg("admin.rule.role"))),
    language: z.enum(LANGUAGES, msg("admin.rule.language")),
  }),
  z.transform(
    (f): Complete<EditProfileBody> => ({ fullName: f.fullName.trim(), phone: f.phone.trim(), role: f.role as Complete<EditProfileBody>["role"], language: f.language }),
  ),
);

export function checkProfile(f: ProfileForm): Check<Complete<EditProfileBody>, keyof ProfileForm> {
  return check(profileSchema, f);
}

export const adjustSchema = z.pipe(
  z.object({
    delta: z.string().check(
      z.refine((t) => {
        const n = Number(t.trim());
        return Number.isInteger(n) && n !== 0 && Math.abs(n) <= 1000;
      }, msg("adminClient.rule.delta")),
    ),
    reason: z.string().check(z.refine((t) => t.trim() !== "", msg("adminClient.rule.reason"))),
  }),
  z.transform((f): Complete<AdjustCreditsBody> => ({ delta: Number(f.delta.trim()), reason: f.reason.trim() })),
);

export function checkAdjust(f: AdjustForm): Check<Complete<AdjustCreditsBody>, keyof AdjustForm> {
  return check(adjustSchema, f);
}

/**
 * The extension of a lot whose last day is `current`: a real day after it, no later than
 * `latest` (60 months from today, as the API allows), and a reason of 3 to 500 characters.
 */
export function extendSchema(current: string, latest: string) {
  return z.pipe(
    z.object({
      expiresOn: z.string().check(
        z.trim(),
        z.refine((day) => dayParts(day) !== null, msg("adminClient.rule.expiryDay")),
        z.refine((day) => day > current, msg("adminClient.rule.expiryLater")),
        z.refine((day) => day <= latest, msg("adminClient.rule.expiryWithin")),
      ),
      reason: z.string().check(
        z.trim(),
        z.refine((t) => length(t) >= 3, msg("adminClient.rule.reasonShort")),
        z.refine((t) => length(t) <= 500, msg("adminClient.rule.reasonLong")),
      ),
    }),
    z.transform((f) => ({ expiresOn: f.expiresOn, reason: f.reason })),
  );
}

export function checkExtend(f: ExtendForm, current: string, latest: string): Check<{ expiresOn: string; reason: string }, keyof ExtendForm> {
  return check(extendSchema(current, latest), f);
}

export interface RefundPayload {
  credits: number;
  /** In the currency's major unit, as the API takes it (16200.5). */
  amount: number;
  reason: string | null;
}

/** What a refund form sends, and its amount in minor units (for the confirm button's words). */
export interface RefundOutput {
  payload: RefundPayload;
  minor: number;
}

/**
 * A refund within what the API allows: 0 to the unused credits, 0 to what is left to refund
 * in steps of the currency's minor unit, and not nothing at all.
 */
export function refundSchema(r: Refundable) {
  const digits = minorDigits(r.maxAmount.currency);
  const creditsOf = (t: string) => (t.trim() === "" ? 0 : Number(t.trim()));
  const amountOf = (t: string) => (t.trim() === "" ? 0 : Number(t.trim()));
  const minorOf = (t: string) => Math.round(amountOf(t) * 10 ** digits);
  const wholeCredits = (t: string) => Number.isInteger(creditsOf(t)) && creditsOf(t) >= 0;
  const inSteps = (t: string) => {
    const amount = amountOf(t);
    return Number.isFinite(amount) && amount >= 0 && Math.abs(minorOf(t) - amount * 10 ** digits) <= 1e-6;
  };
  const creditsOk = (t: string) => wholeCredits(t) && creditsOf(t) <= r.unusedCredits;
  const amountOk = (t: string) => inSteps(t) && minorOf(t) <= r.maxAmount.minor;
  return z.pipe(
    z
      .object({
        credits: z.string().check(
          z.refine(wholeCredits, msg("adminClient.rule.creditsWhole")),
          z.refine((t) => creditsOf(t) <= r.unusedCredits, { error: () => t("adminClient.rule.creditsMost", { count: r.unusedCredits }) }),
        ),
        amount: z.string().check(
          z.refine(inSteps, { error: () => t("admin.rule.amountSteps", { step: (1 / 10 ** digits).toFixed(digits) }) }),
          z.refine((t) => minorOf(t) <= r.maxAmount.minor, { error: () => t("adminClient.rule.amountMost", { money: formatMoney(r.maxAmount) }) }),
        ),
        reason: z.string().check(z.refine((t) => length(t.trim()) <= 500, msg("adminClient.rule.reasonLong"))),
      })
      .check(
        z.refine<RefundForm>((f) => !(creditsOk(f.credits) && amountOk(f.amount) && creditsOf(f.credits) === 0 && minorOf(f.amount) === 0), {
          ...msg("adminClient.rule.refundNothing"),
          path: ["amount"],
        }),
      ),
    z.transform(
      (f): RefundOutput => ({
        payload: { credits: creditsOf(f.credits), amount: minorOf(f.amount) / 10 ** digits, reason: f.reason.trim() || null },
        minor: minorOf(f.amount),
      }),
    ),
  );
}

export function checkRefund(f: RefundForm, r: Refundable): ({ ok: true } & RefundOutput) | { ok: false; errors: Errors<keyof RefundForm> } {
  const c = check(refundSchema(r), f);
  return c.ok ? { ok: true, ...c.payload } : c;
}
