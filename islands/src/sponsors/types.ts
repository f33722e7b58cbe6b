// The shapes of issue 23's API (sponsors, engagements, invoices, the sponsor's usage report):
// aliases of the types generated from the API's OpenAPI document (../api/schema.d.ts), by the
// names the sponsors' screens use. Request bodies the screens build are typed here too.
import type { components } from "../api/schema";
import type { Money } from "../api/types";

export type { Money };
type Schemas = components["schemas"];

export type SponsorExecutive = Schemas["ExecutiveRef"];
/** A company that pays for its executives' coaching (GET /api/admin/sponsors). */
export type SponsorView = Schemas["SponsorView"];
export type InvoiceStatus = "draft" | "sent" | "paid" | "overdue" | "void";
export type InvoiceLine = Schemas["InvoiceLine"];
export type InvoiceView = Schemas["InvoiceView"];
/** POST /api/invoices/by-token/{token}/pay: PayTabs' hosted page. */
export type PayRedirect = Schemas["RedirectView"];
export type EngagementMember = Schemas["MemberView"];
export type EngagementMove = Schemas["MoveView"];
export type EngagementView = Schemas["EngagementView"];
/** A report link as the admin lists it (the token is only in the answer that created it). */
export type ReportLinkView = Schemas["ReportLink"];
export type CreatedReportLink = Schemas["CreatedReportLink"];
export type SponsorReportExecutive = Schemas["ExecutiveUsage"];
/** GET /api/sponsor-reports/{token} */
export type SponsorReportView = Schemas["SponsorReport"];
/** GET /api/dashboard `sponsored[]`: credits a company pays for. */
export type SponsoredCredits = Schemas["SponsoredView"];
/** The admin's client page: a lot's engagement (`lots[].engagement`). */
export type LotEngagement = Schemas["LotEngagement"];

/** POST /api/admin/sponsors, PATCH /api/admin/sponsors/{id} (every field: null clears one). */
export interface SponsorBody {
  name: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string | null;
  address: string | null;
  taxId: string | null;
  notes: string | null;
}

/** A member of a new engagement, or of an allocation: an existing client, or an email to invite. */
export interface MemberBody {
  clientId?: string;
  email?: string;
  credits: number;
}

/** POST /api/admin/engagements. `price` is EGP, as text ("20250.50"). */
export interface CreateEngagementBody {
  sponsorId: string;
  title: string;
  credits: number;
  price: string;
  validityMonths: number;
  startsOn: string;
  dueDays: number;
  members: MemberBody[];
}

/** POST /api/admin/engagements/{id}/move */
export interface MoveBody {
  fromClientId: string;
  toClientId: string;
  credits: number;
  reason: string;
}
