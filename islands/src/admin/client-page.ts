// The rules of the admin's client page forms (profile, credit adjustment) as pure functions of
// the raw input strings, so they can be tested without a browser.
import type { AdjustCreditsBody, Complete, EditProfileBody } from "../api/types";
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
