// How a payment's method reads on receipts and in the admin (common.method.*).
import { tMaybe } from "./i18n";

export function methodLabel(method: string): string {
  return tMaybe(`common.method.${method}`) ?? method.replace(/_/g, " ");
}

/** Who takes an online refund (a refund's or refundable payment's `method`): the provider's
 *  name, as the admin's refund texts say it; `null` for an offline one the admin records. */
export function refundProvider(method: string): string | null {
  if (method === "paymob") return "Paymob";
  if (method === "paytabs") return "PayTabs";
  return null;
}
