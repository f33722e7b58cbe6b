import { describe, expect, it } from "vitest";
import { accountLink } from "../src/lib/account-link";
import { signedInHint } from "../src/lib/hint";

describe("the header's signed-in hint", () => {
  it("reads client or admin from the API's hint cookie, and nothing else", () => {
    expect(signedInHint("a=1; signed_in=client; b=2")).toBe("client");
    expect(signedInHint("signed_in=admin")).toBe("admin");
    expect(signedInHint("")).toBeNull();
    expect(signedInHint("signed_in=")).toBeNull();
    expect(signedInHint("signed_in=root")).toBeNull();
    expect(signedInHint("not_signed_in=admin")).toBeNull();
  });
  it("turns Client Login into Dashboard or Admin", () => {
    expect(accountLink(null)).toEqual({ href: "/auth", label: "Client Login" });
    expect(accountLink("client")).toEqual({ href: "/dashboard", label: "Dashboard" });
    expect(accountLink("admin")).toEqual({ href: "/admin", label: "Admin" });
  });
});

import { isScheduledMessage, originOf } from "../src/lib/scheduled";

describe("the scheduler's booking message", () => {
  const scheduler = originOf("http://127.0.0.1:8080/calendly-standin/book?x=1", "http://127.0.0.1:8000/book-session");
  const message = { event: "calendly.event_scheduled", payload: { event: { uri: "e" }, invitee: { uri: "i" } } };
  it("counts only calendly.event_scheduled from the scheduler's own origin", () => {
    expect(scheduler).toBe("http://127.0.0.1:8080");
    expect(isScheduledMessage("http://127.0.0.1:8080", message, scheduler)).toBe(true);
    expect(isScheduledMessage("https://evil.example", message, scheduler)).toBe(false);
    expect(isScheduledMessage("http://127.0.0.1:8080", { event: "calendly.date_and_time_selected" }, scheduler)).toBe(false);
    expect(isScheduledMessage("http://127.0.0.1:8080", "calendly.event_scheduled", scheduler)).toBe(false);
    expect(isScheduledMessage("http://127.0.0.1:8080", message, null)).toBe(false);
  });
});
