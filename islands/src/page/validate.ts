// The rules and messages of the newsletter, contact and newsletter-confirm forms (spec §5, §8).
// Pure: a form's values come in through a getter, so this runs without a DOM. Only forms.ts
// imports it, so it ships in the lazily loaded forms chunk.

/** A toast: title, then text. */
export type Message = readonly [title: string, text: string];
/** A failed check: title, text, and the fields to mark invalid (the first gets focus). */
export type Problem = readonly [title: string, text: string, fields: readonly string[]];
/** A form field's value by name ("" when absent). */
export type Values = (name: string) => string;

export interface FormRules {
  validate(values: Values): Problem | null;
  success(data: Readonly<Record<string, unknown>>): Message;
  failure: Message;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BAD_EMAIL: Problem = ["Invalid email address", "Please enter a valid email address.", ["email"]];

const newsletter: FormRules = {
  validate(v) {
    const email = v("email").trim();
    if (!email) return ["Please enter your email", "Email address is required to subscribe.", ["email"]];
    if (!EMAIL.test(email)) return BAD_EMAIL;
    return null;
  },
  success: () => ["Successfully subscribed!", "Thank you for subscribing to our newsletter."],
  failure: ["Subscription failed", "Please try again later."],
};

const contact: FormRules = {
  validate(v) {
    const missing = ["name", "email", "message"].filter((n) => !v(n).trim());
    if (missing.length) return ["Validation Error", "Please fill in all required fields.", missing];
    if (!EMAIL.test(v("email").trim())) return BAD_EMAIL;
    if (v("form_type") === "discovery_call" && !v("phone").trim()) {
      return ["Validation Error", "Phone number is required for discovery calls.", ["phone"]];
    }
    return null;
  },
  success: (data) => [
    "Success!",
    data.form_type === "discovery_call"
      ? "Your discovery call request has been sent. I'll be in touch within 1-2 business days."
      : "Your message has been sent successfully. I'll respond within 1-2 business days.",
  ],
  failure: ["Error", "There was an issue sending your message. Please try again."],
};

// The button on /newsletter/confirm: the emailed link only opens the page, so a mail
// scanner that prefetches links subscribes no one.
const confirm: FormRules = {
  validate(v) {
    if (!v("token")) return ["Confirmation failed", "This confirmation link is incomplete. Please open the link from the email again.", []];
    return null;
  },
  success: () => ["You're subscribed!", "Thank you for confirming. Leadership insights will arrive in your inbox."],
  failure: ["Confirmation failed", "This confirmation link is invalid or has expired. Please subscribe again from the footer."],
};

/** The rules for a form's data-form value (missing or empty means newsletter). */
export function rulesFor(kind: string | undefined): FormRules | undefined {
  switch (kind || "newsletter") {
    case "newsletter":
      return newsletter;
    case "contact":
      return contact;
    case "confirm":
      return confirm;
    default:
      return undefined;
  }
}
