// The API's shapes, by the names the islands use, as aliases of the types generated from the
// API's OpenAPI document (schema.d.ts, written by scripts/api-types.sh; never edit it by hand).
// When the API changes, regenerating schema.d.ts makes tsc point at every island it breaks.
import type { components } from "./schema";

type Schemas = components["schemas"];

// ---------- responses

/** The body of every error response: `{ error: { code, message, fields? } }`. */
export type ErrorBody = Schemas["ErrorBody"];

export type AdminStats = Schemas["Stats"];
export type ClientRow = Schemas["ClientRow"];
export type BookingView = Schemas["AdminBookingView"];
export type CreatedUser = Schemas["CreatedUser"];
export type AccountView = Schemas["AccountView"];
export type DashboardView = Schemas["DashboardView"];
/** A session on the client's dashboard (not the sign-in session: see `Session`). */
export type SessionView = Schemas["SessionView"];
export type PaymentRecordView = Schemas["PaymentRecordView"];
export type BookSessionView = Schemas["BookSessionView"];
export type PaymentView = Schemas["PaymentView"];
export type RedirectView = Schemas["RedirectView"];
export type CancelledSession = Schemas["CancelledSession"];
export type ReceiptView = Schemas["ReceiptView"];
export type ClientDetailView = Schemas["ClientDetailView"];
export type LedgerEntryView = Schemas["LedgerEntryView"];
export type ClientPaymentView = Schemas["ClientPaymentView"];
/** One lot of a client's credits, with its last day (GET /api/admin/clients/{id}/lots). */
export type LotView = Schemas["LotView"];
/** What is left to refund of one payment (GET /api/admin/payments/{id}/refund). */
export type Refundable = Schemas["Refundable"];
export type RefundRow = Schemas["RefundRow"];
/** The answer of POST /api/admin/payments: the payment and the last day of its credits. */
export type RecordedPaymentView = Schemas["RecordedPaymentView"];
/** A discount code with its uses, as the admin sees it (GET /api/admin/discount-codes). */
export type DiscountCodeView = Schemas["DiscountCodeView"];
/** The part of GET /api/dashboard the admin pages use: the external scheduling page. */
export type SchedulerInfo = Pick<DashboardView, "schedulerUrl" | "schedulerName">;

// The status page (admin -> System, issue 24).
export type SystemView = Schemas["SystemView"];
export type WebhookStatus = Schemas["WebhookStatus"];
export type WebhookRefusal = Schemas["WebhookRefusal"];
export type WebhookReason = Schemas["WebhookReason"];
export type WebhookProvider = Schemas["WebhookProvider"];
export type WaitingEmail = Schemas["WaitingEmail"];
export type JobRun = Schemas["JobRun"];
export type Job = Schemas["Job"];
export type CatalogueStatus = Schemas["CatalogueStatus"];
/** `api doctor`'s checks, as POST /api/admin/system/doctor answers them. */
export type DoctorReport = Schemas["DoctorReport"];
export type CheckResult = Schemas["CheckResult"];
export type CheckCode = Schemas["CheckCode"];
export type LedgerReport = Schemas["LedgerReport"];

export type Role = Schemas["Role"];

/** The signed-in user and profile (GET /api/auth/session, sign-in, sign-up). */
export type Session = Schemas["AuthSessionView"];

// ---------- request bodies

/**
 * A request body as the islands' validators produce it: every field present and, except the
 * `Nullable` ones, not null (the document makes every field optional so that the API, not
 * the JSON parser, words the message about a missing one).
 */
export type Complete<T, Nullable extends keyof T = never> = {
  [K in keyof T]-?: K extends Nullable ? Exclude<T[K], undefined> : NonNullable<T[K]>;
};

export type SignInBody = Schemas["SignIn"];
export type SignUpBody = Schemas["SignUp"];
export type CreateUserBody = Schemas["CreateUser"];
export type PhoneBookingBody = Schemas["PhoneBooking"];
export type AddPaymentBody = Schemas["AddPayment"];
export type PurchaseBody = Schemas["PurchaseRequest"];
export type ResetConfirmBody = Schemas["ResetConfirm"];
export type ResetRequestBody = Schemas["ResetRequest"];
export type PaymentHistoryBody = Schemas["PaymentHistory"];
export type EditProfileBody = Schemas["EditProfile"];
export type AdjustCreditsBody = Schemas["AdjustCredits"];
export type ExtendLotBody = Schemas["ExtendLot"];
export type RefundPaymentBody = Schemas["RefundPayment"];
/** A new discount code (POST /api/admin/discount-codes). */
export type CreateDiscountCodeBody = Schemas["CreateDiscountCode"];
export type ConfirmTransferBody = Schemas["ConfirmTransfer"];
export type TransferView = Schemas["TransferView"];
export type PendingTransferView = Schemas["PendingTransferView"];

// ---------- money

/** An amount as the API sends every amount: integer minor units (piastres) and an ISO 4217 currency. */
export type Money = Schemas["Money"];
