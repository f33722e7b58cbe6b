// The client page's dialogs (Radix Dialog, refund, extend, confirm) load on demand, as the
// dashboard's do (../lazy): the page's first paint needs none of them. `preloadClientDialogs`
// fetches them ahead of a click (on idle, and when a button that opens one is hovered or
// focused).
import { lazy } from "react";
import { loadMessages } from "../../lib/i18n";

let pending: Promise<typeof import("./dialogs")> | null = null;
/** The dialogs' code and their messages (adminClientDialogs), together. */
const load = () => (pending ??= Promise.all([import("./dialogs"), loadMessages(["adminClientDialogs"])]).then(([m]) => m));

export function preloadClientDialogs(): void {
  load().catch(() => {
    // Try again on the next request.
    pending = null;
  });
}

export const ConfirmDialog = lazy(() => load().then((m) => ({ default: m.ConfirmDialog })));
export const ExtendLotDialog = lazy(() => load().then((m) => ({ default: m.ExtendLotDialog })));
export const RefundDialog = lazy(() => load().then((m) => ({ default: m.RefundDialog })));
