// Pure helpers of /payment/success: the payment verification rules (spec §4, §9) and how the
// order's size reads. No React and no DOM here, so they are unit-tested in tests/client.test.ts.
import { sessions } from "./format";
import { t } from "./i18n";

/** Spec §9: the page waits 2 seconds before looking the transaction up. */
export const VERIFY_DELAY_MS = 2000;
/** A pending transaction is asked for again every 2 seconds… */
export const POLL_INTERVAL_MS = 2000;
/** …for about 30 seconds, then the page says the payment is being processed. */
export const POLL_LIMIT_MS = 30_000;

/** The cart id of /payment/success?cart_id=…, or null. */
export function cartIdFrom(search: string): string | null {
  const id = new URLSearchParams(search).get("cart_id")?.trim();
  return id ? id : null;
}

/** The transaction lookup: by cart id, else the signed-in user's latest (spec §7). */
export function failedPath(cartId: string | null | undefined): string {
  return cartId ? `/payment/failed?cart_id=${encodeURIComponent(cartId)}` : "/payment/failed";
}

export type VerifyStep = "failed" | "success" | "poll" | "processing";

/** What to do with a transaction `elapsedMs` after the first lookup (spec §4). */
export function verifyStep(status: string, elapsedMs: number): VerifyStep {
  if (status === "failed") return "failed";
  if (status !== "pending") return "success";
  return elapsedMs + POLL_INTERVAL_MS <= POLL_LIMIT_MS ? "poll" : "processing";
}

/** A package's size: sessions for one-to-one, hours for group coaching (spec §3). */
export function packageQuantity(packageType: string, n: number): string {
  if (packageType === "group") return t("client.count.hours", { count: n });
  return sessions(n);
}

/** The label of that row: "Hours" or "Sessions". */
export function packageQuantityLabel(packageType: string): string {
  return packageType === "group" ? t("client.pay.hours") : t("client.pay.sessions");
}
