// The Sponsors tab's labels and small decisions, as pure functions: what an invoice's status
// reads and which actions it allows, who a member is, a report link's state.
import { ApiError } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { type MessageKey, t } from "../../lib/i18n";
import type { EngagementMember, EngagementView, InvoiceStatus, InvoiceView, ReportLinkView, SponsorView } from "../../sponsors/types";

const STATUSES: readonly InvoiceStatus[] = ["draft", "sent", "paid", "overdue", "void"];

/** "Draft", "Sent", "Paid", "Overdue", "Void" (a status the catalogue does not know as it came). */
export function invoiceStatusLabel(status: string): string {
  return (STATUSES as readonly string[]).includes(status) ? t(`admin.sponsors.invoice.status.${status}` as MessageKey) : status;
}

/** The badge's colour: green paid, red overdue or void, yellow otherwise. */
export function invoiceTone(status: string): "success" | "danger" | "warning" {
  return status === "paid" ? "success" : status === "overdue" || status === "void" ? "danger" : "warning";
}

/** What the admin may do with an invoice in its status. */
export function invoiceActions(invoice: Pick<InvoiceView, "status">): { send: boolean; resend: boolean; markPaid: boolean; void: boolean } {
  const open = invoice.status === "draft" || invoice.status === "sent" || invoice.status === "overdue";
  return { send: invoice.status === "draft", resend: invoice.status === "sent" || invoice.status === "overdue", markPaid: open, void: open };
}

/** Credits can be released "on credit" until they reached the executives some other way. */
export const canRelease = (e: Pick<EngagementView, "released" | "invoice">) => !e.released && e.invoice.status !== "paid" && e.invoice.status !== "void";

/** Where the engagement's credits stand, in a sentence. */
export function releaseState(e: Pick<EngagementView, "released" | "releasedAt" | "invoice">): string {
  if (e.released) return t("admin.sponsors.engagement.releasedOn", { date: shortDate(e.releasedAt ?? "") });
  if (e.invoice.status === "paid") return t("admin.sponsors.engagement.releasedPaid");
  if (e.invoice.status === "void") return t("admin.sponsors.engagement.releasedVoid");
  return t("admin.sponsors.engagement.releasedNot");
}

/** A member by name, or by email for an invitee without an account. */
export const memberName = (m: Pick<EngagementMember, "name" | "email">) => m.name ?? m.email;

/** A report link is active until it expires or is revoked. */
export function linkState(link: ReportLinkView, now: Date = new Date()): "active" | "expired" | "revoked" {
  if (link.revokedAt) return "revoked";
  return new Date(link.expiresAt).getTime() <= now.getTime() ? "expired" : "active";
}

/** The table's order: active sponsors by name, then the archived ones. */
export function sponsorOrder(a: SponsorView, b: SponsorView): number {
  if (!!a.archivedAt !== !!b.archivedAt) return a.archivedAt ? 1 : -1;
  return a.name.localeCompare(b.name);
}

/** One engagement in a list, replaced by its newer copy. */
export const replaceIn = <T extends { id: string }>(list: T[] | null, item: T): T[] => (list ?? []).map((x) => (x.id === item.id ? item : x));

/** A failed call: its message and field messages (in the page's language), for the form and
 *  the list under 'Details:'. */
export interface Failure {
  message: string;
  fields: Record<string, string>;
}

export const failureOf = (err: unknown, fallback: string): Failure => ({
  message: err instanceof ApiError ? err.message : fallback,
  fields: err instanceof ApiError ? err.fields : {},
});

/** The message of a failed action, for a toast. */
export const errorText = (err: unknown, fallback: string) => (err instanceof ApiError ? err.message : fallback);

/** Copies text to the clipboard; false when the browser refuses. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
