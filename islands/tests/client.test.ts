import { urlOf } from "../src/lib/api";
import { describe, expect, it } from "vitest";
import {
  STATUS_FILTERS,
  dashboardQuery,
  emptySessionsText,
  filterLabel,
  joinLink,
  receiptPath,
  schedulerLinkText,
  sessionTitle,
  webUrl,
} from "../src/lib/client-views";
import { POLL_INTERVAL_MS, POLL_LIMIT_MS, VERIFY_DELAY_MS, cartIdFrom, failedPath, packageQuantity, packageQuantityLabel, verifyStep } from "../src/lib/payment-views";
import type { PaymentRecordView } from "../src/api/types";

describe("dashboard session filter (spec §2)", () => {
  it("offers All, Confirmed, Cancelled and Pending", () => {
    expect(STATUS_FILTERS.map(filterLabel)).toEqual(["All", "Confirmed", "Cancelled", "Pending"]);
  });
  it("asks the API with ?status= except for all", () => {
    expect(urlOf("/api/dashboard", { query: dashboardQuery("all") })).toBe("/api/dashboard");
    expect(urlOf("/api/dashboard", { query: dashboardQuery("cancelled") })).toBe("/api/dashboard?status=cancelled");
  });
  it("has the spec's empty states", () => {
    expect(emptySessionsText("all")).toBe("No upcoming sessions");
    expect(emptySessionsText("confirmed")).toBe("No confirmed sessions");
    expect(emptySessionsText("cancelled")).toBe("No cancelled sessions");
    expect(emptySessionsText("pending")).toBe("No pending sessions");
  });
});

describe("session cards", () => {
  it("falls back to 'Coaching Session' without notes", () => {
    expect(sessionTitle(null)).toBe("Coaching Session");
    expect(sessionTitle(undefined)).toBe("Coaching Session");
    expect(sessionTitle("   ")).toBe("Coaching Session");
    expect(sessionTitle(" Strategy review ")).toBe("Strategy review");
  });
  it("offers Join Meeting only for a confirmed session with a link", () => {
    const link = "https://meet.google.com/abc-defg-hij";
    expect(joinLink({ status: "confirmed", googleMeetLink: link })).toBe(link);
    expect(joinLink({ status: "pending", googleMeetLink: link })).toBeNull();
    expect(joinLink({ status: "cancelled", googleMeetLink: link })).toBeNull();
    expect(joinLink({ status: "confirmed", googleMeetLink: null })).toBeNull();
    expect(joinLink({ status: "confirmed", googleMeetLink: "" })).toBeNull();
  });
  it("only links to web addresses", () => {
    expect(webUrl("javascript:alert(1)")).toBeNull();
    expect(webUrl("not a url")).toBeNull();
    expect(webUrl("http://127.0.0.1:8000/x")).toBe("http://127.0.0.1:8000/x");
  });
  it("names the scheduling service in its quick action", () => {
    expect(schedulerLinkText("Calendly")).toBe("View Calendly Bookings");
  });
});

describe("payment history", () => {
  const line = (over: Partial<PaymentRecordView>): PaymentRecordView => ({
    id: "pay-1",
    paymentId: "pay-1",
    kind: "payment",
    amount: { minor: 2_025_000, currency: "EGP" },
    sessionsPurchased: 5,
    paymentDate: "2026-11-20T10:00:00Z",
    paymentMethod: "paytabs",
    referenceNumber: null,
    ...over,
  });
  it("links a payment to its own receipt", () => {
    expect(receiptPath(line({}))).toBe("/receipt?id=pay-1");
  });
  it("links a refund to the receipt of the payment it refunded, not to its own id (issue 20, defect 6)", () => {
    const refund = line({ id: "refund-7", paymentId: "pay-1", kind: "refund", amount: { minor: 1_620_000, currency: "EGP" }, sessionsPurchased: 4 });
    expect(receiptPath(refund)).toBe("/receipt?id=pay-1");
  });
  it("keeps the id whole in the address", () => {
    expect(receiptPath(line({ paymentId: "a/b?c" }))).toBe("/receipt?id=a%2Fb%3Fc");
  });
});

describe("payment verification (spec §4, §9)", () => {
  it("waits 2 seconds, then polls every 2 s for about 30 s", () => {
    expect(VERIFY_DELAY_MS).toBe(2000);
    expect(POLL_INTERVAL_MS).toBe(2000);
    expect(POLL_LIMIT_MS).toBe(30_000);
  });
  it("reads the cart id of the query", () => {
    expect(cartIdFrom("?cart_id=abc-123")).toBe("abc-123");
    expect(cartIdFrom("?cart_id=")).toBeNull();
    expect(cartIdFrom("")).toBeNull();
  });
  it("looks up by cart id, else the latest transaction", () => {
    expect(urlOf("/api/payments/by-cart/{cart_id}", { path: { cart_id: "abc 1/2" } })).toBe("/api/payments/by-cart/abc%201%2F2");
  });
  it("sends a failed payment to /payment/failed with its cart id", () => {
    expect(failedPath("c&1")).toBe("/payment/failed?cart_id=c%261");
    expect(failedPath(null)).toBe("/payment/failed");
  });
  it("decides what a transaction status means", () => {
    expect(verifyStep("failed", 0)).toBe("failed");
    expect(verifyStep("completed", 0)).toBe("success");
    expect(verifyStep("pending", 0)).toBe("poll");
    expect(verifyStep("pending", POLL_LIMIT_MS - POLL_INTERVAL_MS)).toBe("poll");
    expect(verifyStep("pending", POLL_LIMIT_MS)).toBe("processing");
  });
  it("counts group packages in hours and one-to-one packages in sessions", () => {
    expect(packageQuantity("individual", 1)).toBe("1 session");
    expect(packageQuantity("individual", 6)).toBe("6 sessions");
    expect(packageQuantity("group", 10)).toBe("10 hours");
    expect(packageQuantity("group", 1)).toBe("1 hour");
    expect(packageQuantityLabel("group")).toBe("Hours");
    expect(packageQuantityLabel("individual")).toBe("Sessions");
  });
});
