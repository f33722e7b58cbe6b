// The rules of the admin's client page forms (profile, credit adjustment, extending a lot,
// refunding a payment) as pure functions of the raw input strings, so they can be tested
// without a browser.
import type { AdjustCreditsBody, Complete, EditProfileBody, Money, Refundable } from "../api/types";
import { formatMoney } from "../lib/format";
import type { Errors } from "./helpers";

export interface ProfileForm {
  fullName: string;
  phone: string;
  role: string;
}

export function checkProfile(f: ProfileForm): { ok: true; payload: Complete<EditProfileBody> } | { ok: false; errors: Errors<keyof ProfileForm> } {
  const errors: Errors<keyof ProfileForm> = {};
  if (f.fullName.trim().length < 2) errors.fullName = "Full name must be at least 2 characters";
  if (f.role !== "client" && f.role !== "admin") errors.role = "Role must be admin or client";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, payload: { fullName: f.fullName.trim(), phone: f.phone.trim(), role: f.role } };
}

export interface AdjustForm {
  delta: string;
  reason: string;
}

export function checkAdjust(f: AdjustForm): { ok: true; payload: Complete<AdjustCreditsBody> } | { ok: false; errors: Errors<keyof AdjustForm> } {
  const errors: Errors<keyof AdjustForm> = {};
  const delta = Number(f.delta.trim());
  if (!Number.isInteger(delta) || delta === 0 || Math.abs(delta) > 1000) errors.delta = "Credits must be a whole number from -1,000 to 1,000, not 0";
  if (f.reason.trim() === "") errors.reason = "Please give a reason for the adjustment";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, payload: { delta, reason: f.reason.trim() } };
}

/** "purchase" → "Purchase", "booking_debit" → "Booking debit". */
export function ledgerKind(kind: string): string {
  const t = kind.replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** +3 / −1 with a real minus sign, 0 as "0". */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

// ---------------------------------------------------------------- credits by lot

/** Where a lot's credits came from, in the coach's words. */
export function lotSource(source: string): string {
  switch (source) {
    case "purchase":
      return "Online purchase";
    case "offline_payment":
      return "Recorded payment";
    case "admin_adjustment":
      return "Added by an admin";
    case "migrated":
      return "Credits from before expiry dates";
    default:
      return ledgerKind(source);
  }
}

/** A lot is live until its unused credits leave; only a live lot can be extended. */
export function lotState(lot: { expiredAt?: string | null; remaining: number }): "live" | "used" | "expired" {
  if (lot.expiredAt) return "expired";
  return lot.remaining > 0 ? "live" : "used";
}

export const canExtend = (lot: { expiredAt?: string | null }) => !lot.expiredAt;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayParts(day: string): [number, number, number] | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  // 2026-02-30 is no day.
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? [y, mo, d] : null;
}

const isoDay = (t: Date) => t.toISOString().slice(0, 10);

/** "2026-12-31" + 1 day → "2027-01-01". */
export function addDays(day: string, days: number): string {
  const p = dayParts(day);
  if (!p) return day;
  return isoDay(new Date(Date.UTC(p[0], p[1] - 1, p[2] + days)));
}

/** "2026-08-31" + 6 months → "2027-02-28": the same day of the month, or its last day. */
export function addMonths(day: string, months: number): string {
  const p = dayParts(day);
  if (!p) return day;
  const last = new Date(Date.UTC(p[0], p[1] - 1 + months + 1, 0)).getUTCDate();
  return isoDay(new Date(Date.UTC(p[0], p[1] - 1 + months, Math.min(p[2], last))));
}

export interface ExtendForm {
  expiresOn: string;
  reason: string;
}

/**
 * The extension of a lot whose last day is `current`: a real day after it, no later than
 * `latest` (60 months from today, as the API allows), and a reason of 3 to 500 characters.
 */
export function checkExtend(
  f: ExtendForm,
  current: string,
  latest: string,
): { ok: true; payload: { expiresOn: string; reason: string } } | { ok: false; errors: Errors<keyof ExtendForm> } {
  const errors: Errors<keyof ExtendForm> = {};
  const day = f.expiresOn.trim();
  if (!dayParts(day)) errors.expiresOn = "Choose the new expiry date";
  else if (day <= current) errors.expiresOn = "The new expiry date must be later than the current one";
  else if (day > latest) errors.expiresOn = "The new expiry date must be within 60 months";
  const reason = f.reason.trim();
  if ([...reason].length < 3) errors.reason = "Give a reason (at least 3 characters)";
  else if ([...reason].length > 500) errors.reason = "The reason must be at most 500 characters";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, payload: { expiresOn: day, reason } };
}

// ---------------------------------------------------------------- refunds

/** The digits after the decimal point of a currency's amounts: 2 for EGP. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** {minor: 1620000, currency: "EGP"} → "16200.00", as an amount input holds it. */
export function moneyInput({ minor, currency }: Money): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

export interface RefundForm {
  credits: string;
  amount: string;
  reason: string;
}

/** The dialog starts empty, so refunding everything takes a deliberate step (issue 20). */
export function refundDefaults(): RefundForm {
  return { credits: "", amount: "", reason: "" };
}

/** What "Use suggested amount" fills in: the payment's unused credits and their paid price. */
export function refundSuggestion(r: Refundable): Pick<RefundForm, "credits" | "amount"> {
  return { credits: String(r.unusedCredits), amount: moneyInput(r.suggestedAmount) };
}

export interface RefundPayload {
  credits: number;
  /** In the currency's major unit, as the API takes it (16200.5). */
  amount: number;
  reason: string | null;
}

/**
 * A refund within what the API allows: 0 to the unused credits, 0 to what is left to refund
 * in steps of the currency's minor unit, and not nothing at all. Also answers the minor units,
 * for the summary the dialog shows before the admin confirms.
 */
export function checkRefund(
  f: RefundForm,
  r: Refundable,
): { ok: true; payload: RefundPayload; minor: number } | { ok: false; errors: Errors<keyof RefundForm> } {
  const errors: Errors<keyof RefundForm> = {};
  const creditsText = f.credits.trim();
  const credits = creditsText === "" ? 0 : Number(creditsText);
  if (!Number.isInteger(credits) || credits < 0) errors.credits = "Credits must be a whole number, 0 or more";
  else if (credits > r.unusedCredits) errors.credits = `At most ${r.unusedCredits} unused ${r.unusedCredits === 1 ? "credit" : "credits"} can be removed`;
  const digits = minorDigits(r.maxAmount.currency);
  const amountText = f.amount.trim();
  const amount = amountText === "" ? 0 : Number(amountText);
  const minor = Math.round(amount * 10 ** digits);
  const step = 1 / 10 ** digits;
  if (!Number.isFinite(amount) || amount < 0 || Math.abs(minor - amount * 10 ** digits) > 1e-6) {
    errors.amount = `Amount must be 0 or more, in steps of ${step.toFixed(digits)}`;
  } else if (minor > r.maxAmount.minor) {
    errors.amount = `At most ${formatMoney(r.maxAmount)} can be refunded`;
  }
  if (!errors.credits && !errors.amount && credits === 0 && minor === 0) errors.amount = "Refund an amount, credits, or both";
  if ([...f.reason.trim()].length > 500) errors.reason = "The reason must be at most 500 characters";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, payload: { credits, amount: minor / 10 ** digits, reason: f.reason.trim() || null }, minor };
}

/** "Refund 16,200 EGP and remove 4 credits": the confirm button says what it does. */
export function refundAction(credits: number, money: Money): string {
  const parts: string[] = [];
  if (money.minor > 0) parts.push(`Refund ${formatMoney(money)}`);
  if (credits > 0) parts.push(`${parts.length ? "remove" : "Remove"} ${credits} ${credits === 1 ? "credit" : "credits"}`);
  return parts.join(" and ") || "Refund";
}

/** Today (YYYY-MM-DD) in an IANA time zone: the coach's day, as the API counts expiry. */
export function dayIn(zone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}
