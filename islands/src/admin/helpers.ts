// Pure helpers of the admin views: labels, badge styles, which actions a booking allows, the
// API paths with their filters, and today's date. No zod here, so the tables stay light.
import { t, tMaybe } from "../lib/i18n";

export type Errors<K extends string> = Partial<Record<K, string>>;

const pad = (n: number) => String(n).padStart(2, "0");

/** Today as YYYY-MM-DD in the viewer's time zone (the default payment date). */
export function today(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A phone booking needs a client with credits left (spec §5). */
export function hasCredits(client: { available_credits: number } | undefined): boolean {
  return !!client && client.available_credits > 0;
}

// ---------------------------------------------------------------- validity of granted credits

/** The longest validity the API accepts for granted credits, in months. */
export const MAX_VALIDITY_MONTHS = 60;
/** The months the validity picker offers; "" (the first option) is the settings' default. */
export const VALIDITY_CHOICES: readonly number[] = Array.from({ length: MAX_VALIDITY_MONTHS }, (_, i) => i + 1);
/** "Credits must be valid for 1 to 60 months". */
export const validityMessage = () => t("admin.rule.validity");

/** 1 → "1 month", 6 → "6 months". */
export const monthsLabel = (n: number) => t("admin.months", { count: n });

/**
 * The picker's value as the API's `validityMonths`: "" → null (the API then uses settings
 * `credits.default_validity_months`), "3" → 3; undefined for anything else (1 to 60 only).
 */
export function validityMonthsOf(text: string): number | null | undefined {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1 && n <= MAX_VALIDITY_MONTHS ? n : undefined;
}

// ---------------------------------------------------------------- labels, badges, queries

/** "bank_transfer" → "Bank Transfer", "no_show" → "No-show", "confirmed" → "Confirmed"
 *  (admin.label.*; a value the catalogue does not know is written out as it is). */
export function label(value: string): string {
  return tMaybe(`admin.label.${value}`) ?? value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, " ");
}

/** Admin badges (spec §4): confirmed default style, completed secondary, anything else destructive. */
export function badgeVariant(status: string): "default" | "secondary" | "destructive" {
  return status === "confirmed" ? "default" : status === "completed" ? "secondary" : "destructive";
}

/** An admin may cancel a confirmed booking, or one that needs attention (pending). */
export const canCancel = (status: string) => status === "confirmed" || status === "pending";

/**
 * A pending booking needs attention: it was made on the scheduling page without proof of who
 * the client is (no client), or by a client without a credit. No credit was used for it.
 */
export const needsAttention = (b: { status: string }) => b.status === "pending";

/** The admin's word for a status: a pending booking "Needs attention". */
export function statusLabel(status: string): string {
  return status === "pending" ? t("admin.needsAttention") : label(status);
}

/**
 * The client to offer first in Assign to client: the one whose account email the invitee
 * typed, else the client the booking names (a verified client who had no credit).
 */
export function suggestedClient<C extends { user_id: string; email: string }>(
  b: { clientId?: string | null; clientEmail?: string | null },
  clients: readonly C[],
): C | undefined {
  if (b.clientId) return clients.find((c) => c.user_id === b.clientId);
  const email = b.clientEmail?.trim().toLowerCase();
  return email ? clients.find((c) => c.email.toLowerCase() === email) : undefined;
}

/** No-show: a confirmed or completed booking whose start has passed. */
export function canMarkNoShow(b: { status: string; sessionDate: string }, now: Date = new Date()): boolean {
  return (b.status === "confirmed" || b.status === "completed") && new Date(b.sessionDate).getTime() <= now.getTime();
}

/** GET /api/admin/clients, with ?search= when there is something to search for. */
/** The server's field messages, keyed by the form's fields (unknown keys are left out). */
export function fieldErrors<K extends string>(fields: Record<string, string>, known: readonly K[]): Errors<K> {
  const out: Errors<K> = {};
  for (const k of known) if (fields[k]) out[k] = fields[k];
  return out;
}
