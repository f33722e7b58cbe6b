// Issue 23's API calls, one function per route, typed by the API's OpenAPI document.
import { GET, PATCH, POST } from "../lib/api";
import type { CreateEngagementBody, MemberBody, MoveBody, SponsorBody } from "./types";

const id = (value: string) => ({ path: { id: value } });

// ------------------------------------------------------------------------------ the admin's

export const listSponsors = () => GET("/api/admin/sponsors").then((r) => r.sponsors);
export const createSponsor = (body: SponsorBody) => POST("/api/admin/sponsors", body);
export const updateSponsor = (sponsorId: string, body: SponsorBody) => PATCH("/api/admin/sponsors/{id}", body, id(sponsorId));
export const archiveSponsor = (sponsorId: string) => POST("/api/admin/sponsors/{id}/archive", undefined, id(sponsorId));

export const listEngagements = (sponsorId: string) =>
  GET("/api/admin/engagements", { query: { sponsorId } }).then((r) => r.engagements);
export const getEngagement = (engagementId: string) => GET("/api/admin/engagements/{id}", id(engagementId));
export const createEngagement = (body: CreateEngagementBody) => POST("/api/admin/engagements", body);
export const releaseCredits = (engagementId: string) => POST("/api/admin/engagements/{id}/release", undefined, id(engagementId));
export const allocateCredits = (engagementId: string, body: MemberBody) =>
  POST("/api/admin/engagements/{id}/allocate", body, id(engagementId));
export const moveCredits = (engagementId: string, body: MoveBody) => POST("/api/admin/engagements/{id}/move", body, id(engagementId));

export const sendInvoice = (invoiceId: string) => POST("/api/admin/invoices/{id}/send", undefined, id(invoiceId));
export const voidInvoice = (invoiceId: string) => POST("/api/admin/invoices/{id}/void", undefined, id(invoiceId));
export const markInvoicePaid = (invoiceId: string, bankReference: string | null) =>
  POST("/api/admin/invoices/{id}/mark-paid", bankReference ? { bankReference } : {}, id(invoiceId));

export const listReportLinks = (sponsorId: string) =>
  GET("/api/admin/sponsors/{id}/report-links", id(sponsorId)).then((r) => r.links);
export const createReportLink = (sponsorId: string, days: number) =>
  POST("/api/admin/sponsors/{id}/report-links", { days }, id(sponsorId));
export const revokeReportLink = (linkId: string) => POST("/api/admin/report-links/{id}/revoke", undefined, id(linkId));

// ------------------------------------------------------------------------------ public, by token

const token = (value: string) => ({ path: { token: value } });

export const invoiceByToken = (value: string) => GET("/api/invoices/by-token/{token}", token(value));
export const payInvoice = (value: string) => POST("/api/invoices/by-token/{token}/pay", undefined, token(value));
export const sponsorReport = (value: string) => GET("/api/sponsor-reports/{token}", token(value));
/** The report's rows as a CSV download (a plain link, not a fetch). */
export const sponsorReportCsv = (value: string) => `/api/sponsor-reports/${encodeURIComponent(value)}/csv`;
