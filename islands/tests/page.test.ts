import { describe, expect, it } from "vitest";
import { carouselSettle } from "../src/page/carousel";
import { galleryIndex, isPast } from "../src/page/events";
import { filterStatus, matchesTag, sameTag, tagFromQuery } from "../src/page/filter";
import { rulesFor, type FormRules, type Values } from "../src/page/validate";

const values =
  (fields: Record<string, string>): Values =>
  (name) =>
    fields[name] ?? "";
const rules = (kind: string | undefined): FormRules => {
  const r = rulesFor(kind);
  if (!r) throw new Error(`no rules for ${kind}`);
  return r;
};

describe("events: past or upcoming at view time", () => {
  const now = Date.parse("2026-05-10T12:00:00Z");
  it("is past when it started before now", () => {
    expect(isPast("2026-05-10T11:59:59Z", now)).toBe(true);
    expect(isPast("2025-12-01T09:00:00+02:00", now)).toBe(true);
  });
  it("is upcoming when it starts now or later", () => {
    expect(isPast("2026-05-10T12:00:00Z", now)).toBe(false);
    expect(isPast("2026-06-01T18:30:00+03:00", now)).toBe(false);
  });
  it("honours the offset in data-starts-at", () => {
    // 13:30 in Cairo (+03:00) is 10:30Z: already past at 12:00Z.
    expect(isPast("2026-05-10T13:30:00+03:00", now)).toBe(true);
  });
  it("leaves the server's decision alone when the date does not parse", () => {
    expect(isPast("", now)).toBeNull();
    expect(isPast(undefined, now)).toBeNull();
    expect(isPast("not a date", now)).toBeNull();
  });
});

describe("events gallery: wraps at both ends", () => {
  it("goes from the last photo to the first", () => {
    expect(galleryIndex(4, 1, 5)).toBe(0);
  });
  it("goes from the first photo to the last", () => {
    expect(galleryIndex(0, -1, 5)).toBe(4);
  });
  it("moves within the range and keeps the index on open (delta 0)", () => {
    expect(galleryIndex(1, 1, 5)).toBe(2);
    expect(galleryIndex(3, -1, 5)).toBe(2);
    expect(galleryIndex(2, 0, 5)).toBe(2);
  });
  it("stays on the only photo", () => {
    expect(galleryIndex(0, 1, 1)).toBe(0);
    expect(galleryIndex(0, -1, 1)).toBe(0);
  });
});

describe("logo carousel: loops", () => {
  it("keeps its index while on a real logo", () => {
    expect(carouselSettle(0, 4)).toBe(0);
    expect(carouselSettle(3, 4)).toBe(3);
  });
  it("jumps back to the first logo once it reaches the copy of it", () => {
    expect(carouselSettle(4, 4)).toBe(0);
    expect(carouselSettle(5, 4)).toBe(0);
  });
});

describe("resources ?tag= filter", () => {
  it("reads the tag from the query", () => {
    expect(tagFromQuery("?tag=Leadership")).toBe("Leadership");
    expect(tagFromQuery("?tag=Team%20Coaching&x=1")).toBe("Team Coaching");
    expect(tagFromQuery("")).toBe("");
    expect(tagFromQuery("?other=1")).toBe("");
  });
  it("matches whole tags, case-insensitively", () => {
    expect(matchesTag("Leadership|Executive Presence", "leadership")).toBe(true);
    expect(matchesTag("leadership|executive presence", "EXECUTIVE PRESENCE")).toBe(true);
    expect(matchesTag("Leadership|Executive Presence", "Executive")).toBe(false);
    expect(matchesTag("Leadership", "Teams")).toBe(false);
    expect(matchesTag("", "Teams")).toBe(false);
  });
  it("shows every card with no tag", () => {
    expect(matchesTag("Leadership", "")).toBe(true);
    expect(matchesTag("", "")).toBe(true);
  });
  it("presses the tag button of the filtered tag, case-insensitively", () => {
    expect(sameTag("Leadership", "LEADERSHIP")).toBe(true);
    expect(sameTag("Leadership", "Teams")).toBe(false);
    expect(sameTag("Leadership", "")).toBe(false);
  });
  it("says how many items show", () => {
    expect(filterStatus("Leadership", 1)).toBe("Showing 1 item tagged “Leadership”");
    expect(filterStatus("leadership", 3)).toBe("Showing 3 items tagged “leadership”");
    expect(filterStatus("Teams", 0)).toBe("Showing 0 items tagged “Teams”");
    expect(filterStatus("", 7)).toBe("");
  });
});

describe("newsletter form (spec §5, §8)", () => {
  const r = rules("newsletter");
  it("is the default when the form names none", () => {
    expect(rulesFor(undefined)).toBe(r);
    expect(rulesFor("")).toBe(r);
    expect(rulesFor("unknown")).toBeUndefined();
  });
  it("requires the email", () => {
    expect(r.validate(values({}))).toEqual(["Please enter your email", "Email address is required to subscribe.", ["email"]]);
    expect(r.validate(values({ email: "   " }))).toEqual(["Please enter your email", "Email address is required to subscribe.", ["email"]]);
  });
  it("requires a basic email shape", () => {
    for (const email of ["me", "me@host", "a b@c.com", "@c.com", "me@.com x"]) {
      expect(r.validate(values({ email }))).toEqual(["Invalid email address", "Please enter a valid email address.", ["email"]]);
    }
    expect(r.validate(values({ email: " me@company.com " }))).toBeNull();
  });
  it("has the spec's success and failure toasts", () => {
    expect(r.success({ email: "me@company.com" })).toEqual(["Successfully subscribed!", "Thank you for subscribing to our newsletter."]);
    expect(r.failure).toEqual(["Subscription failed", "Please try again later."]);
  });
});

describe("contact form (spec §5, §8)", () => {
  const r = rules("contact");
  const ok = { form_type: "general", name: "Mona", email: "mona@company.com", message: "Hello" };
  it("requires name, email and message and marks the missing ones", () => {
    expect(r.validate(values({ form_type: "general" }))).toEqual([
      "Validation Error",
      "Please fill in all required fields.",
      ["name", "email", "message"],
    ]);
    expect(r.validate(values({ ...ok, name: " ", message: "" }))).toEqual(["Validation Error", "Please fill in all required fields.", ["name", "message"]]);
  });
  it("checks the email shape", () => {
    expect(r.validate(values({ ...ok, email: "mona" }))).toEqual(["Invalid email address", "Please enter a valid email address.", ["email"]]);
  });
  it("requires the phone only for discovery calls", () => {
    expect(r.validate(values(ok))).toBeNull();
    expect(r.validate(values({ ...ok, form_type: "discovery_call" }))).toEqual([
      "Validation Error",
      "Phone number is required for discovery calls.",
      ["phone"],
    ]);
    expect(r.validate(values({ ...ok, form_type: "discovery_call", phone: "  " }))).toEqual([
      "Validation Error",
      "Phone number is required for discovery calls.",
      ["phone"],
    ]);
    expect(r.validate(values({ ...ok, form_type: "discovery_call", phone: "+20 100 000 0000" }))).toBeNull();
  });
  it("has the spec's success messages for a message and a discovery call", () => {
    expect(r.success({ ...ok })).toEqual(["Success!", "Your message has been sent successfully. I'll respond within 1-2 business days."]);
    expect(r.success({ ...ok, form_type: "discovery_call" })).toEqual([
      "Success!",
      "Your discovery call request has been sent. I'll be in touch within 1-2 business days.",
    ]);
  });
  it("has the spec's failure toast", () => {
    expect(r.failure).toEqual(["Error", "There was an issue sending your message. Please try again."]);
  });
});

describe("newsletter confirm form", () => {
  const r = rules("confirm");
  it("needs the token from the emailed link", () => {
    expect(r.validate(values({}))).toEqual([
      "Confirmation failed",
      "This confirmation link is incomplete. Please open the link from the email again.",
      [],
    ]);
    expect(r.validate(values({ token: "abc" }))).toBeNull();
  });
  it("has its success and failure messages", () => {
    expect(r.success({ token: "abc" })).toEqual(["You're subscribed!", "Thank you for confirming. Leadership insights will arrive in your inbox."]);
    expect(r.failure).toEqual([
      "Confirmation failed",
      "This confirmation link is invalid or has expired. Please subscribe again from the footer.",
    ]);
  });
});
