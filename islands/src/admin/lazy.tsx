// The dialogs (Radix Dialog, the forms with their zod rules) and the accounting export's form
// load on demand: the dashboard's first paint needs none of them. `preloadDialogs` fetches them
// ahead of a click (on idle, and when a button that opens one is hovered or focused).
import { lazy } from "react";
import { loadMessages } from "../lib/i18n";

let pending: Promise<typeof import("./dialogs")> | null = null;
/** The dialogs' code and their messages (adminDialogs), together. */
const load = () => (pending ??= Promise.all([import("./dialogs"), loadMessages(["adminDialogs"])]).then(([m]) => m));

export function preloadDialogs(): void {
  load().catch(() => {
    // Try again on the next request.
    pending = null;
  });
}

export const CreateUserDialog = lazy(() => load().then((m) => ({ default: m.CreateUserDialog })));
export const PhoneBookingDialog = lazy(() => load().then((m) => ({ default: m.PhoneBookingDialog })));
export const ConfirmDialog = lazy(() => load().then((m) => ({ default: m.ConfirmDialog })));
export const AssignDialog = lazy(() => load().then((m) => ({ default: m.AssignDialog })));
export const ExportPanel = lazy(() => load().then((m) => ({ default: m.ExportPanel })));
export const ConfirmTransferDialog = lazy(() => load().then((m) => ({ default: m.ConfirmTransferDialog })));
