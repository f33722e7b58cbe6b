// What Cancel, Waive and No-show of Sessions Management say and do: the API path of each, the
// confirm prompt's words, and the toast once done.
import type { BookingView } from "../api/types";
import { longDateTime } from "../lib/format";
import { t } from "../lib/i18n";
import { type SessionAction, who } from "./SessionsTable";

export const ACTION_PATH = {
  cancel: "/api/admin/bookings/{id}/cancel",
  "no-show": "/api/admin/bookings/{id}/no-show",
  waive: "/api/admin/bookings/{id}/waive",
} as const satisfies Record<SessionAction, string>;

export function prompt(kind: SessionAction, b: BookingView): { title: string; description: string; confirmText: string; cancelText: string } {
  const when = longDateTime(b.sessionDate);
  if (kind === "waive") {
    return {
      title: t("admin.waive.title"),
      description: t("admin.waive.text", { who: who(b), when }),
      confirmText: t("admin.waive.confirm"),
      cancelText: t("admin.waive.keep"),
    };
  }
  if (kind === "cancel") {
    return {
      title: t("admin.booking.cancelTitle"),
      description: b.status === "pending" ? t("admin.booking.cancelPendingText", { who: who(b), when }) : t("admin.booking.cancelText", { who: who(b), when }),
      confirmText: t("admin.booking.cancel"),
      cancelText: t("admin.booking.keep"),
    };
  }
  return {
    title: t("admin.noShow.title"),
    description: t("admin.noShow.text", { who: who(b), when }),
    confirmText: t("admin.noShow.confirm"),
    cancelText: t("admin.noShow.keep"),
  };
}

/** The success toast: [title, description]. */
export function done(kind: SessionAction, b: BookingView): [string, string] {
  const client = b.clientName ?? t("admin.theClient");
  if (kind === "waive") return [t("admin.waive.done"), t("admin.waive.doneText", { who: client })];
  if (kind === "cancel") {
    return [
      t("admin.booking.cancelled"),
      b.status === "pending"
        ? t("admin.booking.cancelledPendingText", { who: b.clientName ?? t("admin.theInvitee") })
        : t("admin.booking.cancelledText", { who: client }),
    ];
  }
  return [t("admin.noShow.done"), t("admin.noShow.doneText", { who: client })];
}

export const failedTitle = (kind: SessionAction) =>
  kind === "cancel" ? t("common.error.cancelBooking") : kind === "waive" ? t("admin.waive.failed") : t("admin.booking.updateFailed");
