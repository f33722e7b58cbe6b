// The admin forms' values (the strings their inputs hold), their defaults and their choices,
// and the API bodies they become. No zod here: a page shows its form before the rules
// (./validation, with zod) have loaded.
import type { AddPaymentBody, Complete, CreateUserBody, PhoneBookingBody } from "../api/types";
import { lang, t } from "../lib/i18n";
import { today } from "./helpers";

// ---------------------------------------------------------------- create user (§3, §5)

export const ROLES = ["client", "admin"] as const;
export const USER_PAYMENT_METHODS = ["cash", "card", "bank_transfer", "other"] as const;
export type UserRole = (typeof ROLES)[number];
export type UserPaymentMethod = (typeof USER_PAYMENT_METHODS)[number];

export interface CreateUserForm {
  fullName: string;
  email: string;
  phone: string;
  role: UserRole;
  password: string;
  initialCredits: string;
  paymentAmount: string;
  paymentMethod: UserPaymentMethod;
  paymentDate: string;
  paymentNotes: string;
  /** Months the initial credits last; "" for the settings' default. */
  validityMonths: string;
  /** The language of the user's emails: "en" or "ar" (the admin page's at first). */
  language: string;
}

/** POST /api/admin/users, with the choices the form offers. */
export type CreateUserPayload = Complete<CreateUserBody, "phone" | "paymentNotes" | "validityMonths"> & {
  role: UserRole;
  paymentMethod: UserPaymentMethod;
};

export const CREATE_USER_FIELDS = [
  "fullName",
  "email",
  "phone",
  "role",
  "password",
  "initialCredits",
  "paymentAmount",
  "paymentMethod",
  "paymentDate",
  "paymentNotes",
  "validityMonths",
  "language",
] as const satisfies readonly (keyof CreateUserForm)[];

/** Role client, 0 credits, 0 paid in cash today, emails in the admin page's language. */
export function createUserDefaults(day: string = today(), language: string = lang()): CreateUserForm {
  return {
    fullName: "",
    email: "",
    phone: "",
    role: "client",
    password: "",
    initialCredits: "0",
    paymentAmount: "0",
    paymentMethod: "cash",
    paymentDate: day,
    paymentNotes: "",
    validityMonths: "",
    language,
  };
}

// ---------------------------------------------------------------- phone booking (§4, §5)

export const BOOKING_STATUSES = ["confirmed", "completed", "cancelled", "no_show"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface PhoneBookingForm {
  clientId: string;
  sessionDate: string;
  sessionTime: string;
  status: BookingStatus;
  googleMeetLink: string;
  sessionNotes: string;
}

/** POST /api/admin/bookings, with the statuses the form offers. */
export type PhoneBookingPayload = Complete<PhoneBookingBody, "googleMeetLink" | "sessionNotes"> & { status: BookingStatus };

export const PHONE_BOOKING_FIELDS = [
  "clientId",
  "sessionDate",
  "sessionTime",
  "status",
  "googleMeetLink",
  "sessionNotes",
] as const satisfies readonly (keyof PhoneBookingForm)[];

export function phoneBookingDefaults(clientId = ""): PhoneBookingForm {
  return { clientId, sessionDate: "", sessionTime: "", status: "confirmed", googleMeetLink: "", sessionNotes: "" };
}

// ---------------------------------------------------------------- add payment (§5)

export const PAYMENT_METHODS = ["bank_transfer", "credit_card", "cash", "check", "paypal", "other"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface AddPaymentForm {
  clientId: string;
  amount: string;
  sessionsPurchased: string;
  paymentDate: string;
  paymentMethod: PaymentMethod;
  referenceNumber: string;
  notes: string;
  /** Months the credits last from the payment date; "" for the settings' default. */
  validityMonths: string;
}

/** POST /api/admin/payments, with the methods the form offers. */
export type AddPaymentPayload = Complete<AddPaymentBody, "referenceNumber" | "notes" | "validityMonths"> & { paymentMethod: PaymentMethod };

export const ADD_PAYMENT_FIELDS = [
  "clientId",
  "amount",
  "sessionsPurchased",
  "paymentDate",
  "paymentMethod",
  "referenceNumber",
  "notes",
  "validityMonths",
] as const satisfies readonly (keyof AddPaymentForm)[];

/** "Please fill in all required fields". */
export const requiredFieldsMessage = () => t("admin.rule.requiredFields");
/** "This field is required". */
export const requiredField = () => t("admin.rule.required");

export function addPaymentDefaults(day: string = today()): AddPaymentForm {
  return { clientId: "", amount: "", sessionsPurchased: "1", paymentDate: day, paymentMethod: "bank_transfer", referenceNumber: "", notes: "", validityMonths: "" };
}

/** The notice above Add Payment after a refused submit: one message for missing fields, else the first. */
export function addPaymentMessage(errors: Partial<Record<keyof AddPaymentForm, string>>): string | undefined {
  if (Object.values(errors).includes(requiredField())) return requiredFieldsMessage();
  return ADD_PAYMENT_FIELDS.map((k) => errors[k]).find((m): m is string => !!m);
}

// ---------------------------------------------------------------- accounting export

export interface ExportRange {
  from: string;
  to: string;
}
