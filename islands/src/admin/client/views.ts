// The client page's labels, days and figures, and its forms' values, as pure functions (no
// zod: the page's sections use them at first paint; the forms' rules are in ../client-page).
import type { Money, Refundable } from "../../api/types";
import { credits as creditCount, formatMoney } from "../../lib/format";
import { t, tMaybe } from "../../lib/i18n";
import type { LotEngagement } from "../../sponsors/types";
import { dayIn, dayParts } from "../../lib/days";

export { dayIn, dayParts };

export interface ProfileForm {
  fullName: string;
  phone: string;
  role: string;
  /** The language of the client's emails: "en" or "ar". */
  language: string;
}

export interface AdjustForm {
  delta: string;
  reason: string;
}

export interface ExtendForm {
  expiresOn: string;
  reason: string;
}

export interface RefundForm {
  credits: string;
  amount: string;
  reason: string;
}

/** "purchase" → "Purchase", "booking_debit" → "Booking debit" (adminClient.ledger.*; a kind the
 *  catalogue does not know is written out as it is). */
export function ledgerKind(kind: string): string {
  const known = tMaybe(`adminClient.ledger.${kind}`);
  if (known !== undefined) return known;
  const text = kind.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** +3 / −1 with a real minus sign, 0 as "0". */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

// ---------------------------------------------------------------- credits by lot

/** Where a lot's credits came from, in the coach's words: "Online purchase", or for a
 *  company's engagement "Engagement: Leadership programme 2027 (Nile Pharma)". */
export function lotSource(source: string, engagement?: LotEngagement | null): string {
  if (engagement) return t("adminClient.source.engagementOf", { title: engagement.title, sponsor: engagement.sponsor });
  return tMaybe(`adminClient.source.${source}`) ?? ledgerKind(source);
}

/** A lot's engagement (issue 23), or null. */
export function engagementOf(lot: { engagement?: LotEngagement | null }): LotEngagement | null {
  return lot.engagement ?? null;
}

/** A lot is live until its unused credits leave; only a live lot can be extended. */
export function lotState(lot: { expiredAt?: string | null; remaining: number }): "live" | "used" | "expired" {
  if (lot.expiredAt) return "expired";
  return lot.remaining > 0 ? "live" : "used";
}

export const canExtend = (lot: { expiredAt?: string | null }) => !lot.expiredAt;

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

/** The dialog starts empty, so refunding everything takes a deliberate step (issue 20). */
export function refundDefaults(): RefundForm {
  return { credits: "", amount: "", reason: "" };
}

/** What "Use suggested amount" fills in: the payment's unused credits and their paid price. */
export function refundSuggestion(r: Refundable): Pick<RefundForm, "credits" | "amount"> {
  return { credits: String(r.unusedCredits), amount: moneyInput(r.suggestedAmount) };
}

/** "Refund 16,200 EGP and remove 4 credits": the confirm button says what it does. */
export function refundAction(credits: number, money: Money): string {
  if (money.minor > 0 && credits > 0) return t("adminClient.refund.actionBoth", { money: formatMoney(money), credits: creditCount(credits) });
  if (money.minor > 0) return t("adminClient.refund.actionMoney", { money: formatMoney(money) });
  if (credits > 0) return t("adminClient.refund.actionCredits", { credits: creditCount(credits) });
  return t("adminClient.refund.action");
}
