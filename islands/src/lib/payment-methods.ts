// How a payment's method reads on receipts and in the admin (common.method.*).
import { tMaybe } from "./i18n";

export function methodLabel(method: string): string {
  return tMaybe(`common.method.${method}`) ?? method.replace(/_/g, " ");
}
