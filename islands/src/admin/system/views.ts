// What the System tab's parts share: how a moment reads ("Dec 03, 2026, 3:05 PM Cairo time"),
// which findings come with a fix, and each code of the API (a webhook's reason, a job) in the
// page's language.
import type { CheckCode, Job, JobRun, WebhookReason } from "../../api/types";
import { shortDate, timeOfDay } from "../../lib/format";
import { t } from "../../lib/i18n";

/** A moment in the coach's time zone, day and time. */
export function when(iso: string): string {
  return t("admin.system.when", { day: shortDate(iso), time: timeOfDay(iso) });
}

/**
 * Which findings come with a fix, as the API's `Code::english` gives one: every code of the
 * API's `CheckCode` must be here (the type says so), and the catalogues have
 * `admin.system.fix.<code>` exactly for those marked true (tests/system.test.ts).
 */
export const HAS_FIX: Record<CheckCode, boolean> = {
  database_ok: false,
  database_unreachable: true,
  migrations_pending: true,
  migrations_unknown: true,
  migration_changed: true,
  smtp_ok: false,
  smtp_ok_no_login: false,
  smtp_not_configured: true,
  smtp_unreachable: true,
  smtp_login_refused: true,
  paytabs_ok: false,
  paytabs_not_configured: true,
  paytabs_key_refused: true,
  paytabs_profile_refused: true,
  paytabs_unreachable: true,
  paytabs_unexpected: true,
  paymob_ok: false,
  paymob_not_configured: false,
  paymob_key_refused: true,
  paymob_unreachable: true,
  paymob_unexpected: true,
  calendly_ok: false,
  calendly_not_configured: true,
  calendly_token_refused: true,
  calendly_unreachable: true,
  calendly_unexpected: true,
  calendly_no_subscription: true,
  calendly_subscription_disabled: true,
  calendly_no_signing_key: true,
  catalogue_ok: false,
  catalogue_unreachable: true,
  catalogue_http: true,
  catalogue_invalid: true,
  clock_ok: false,
  clock_ahead: true,
  clock_behind: true,
  clock_unknown: false,
};

export function reason(r: WebhookReason): string {
  return t(`admin.system.reason.${r}`);
}

export function jobName(j: Job): string {
  return t(`admin.system.job.${j}`);
}

/** What a run did ("3 credits expired"), or nothing when it failed. */
export function jobDid(r: JobRun): string {
  return r.items === null || r.items === undefined ? "" : t(`admin.system.did.${r.job}`, { count: r.items });
}

/** Badge colours (islands.css): green for what works, red for what does not, yellow between. */
export function tone(outcome: string): "success" | "danger" | "warning" {
  if (outcome === "ok" || outcome === "applied" || outcome === "sent") return "success";
  if (outcome === "failed" || outcome === "refused") return "danger";
  return "warning";
}
