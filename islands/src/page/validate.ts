// The rules and messages of the newsletter, contact and newsletter-confirm forms (spec §5, §8).
// Pure: a form's values come in through a getter, so this runs without a DOM. Only forms.ts
// imports it, so it ships in the lazily loaded forms chunk. The texts are in the page's
// language (./texts: src/i18n/<lang>/forms.json).
import { formsText as t } from "./forms-texts";

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
const badEmail = (): Problem => [t("forms.email.invalid"), t("forms.email.invalidText"), ["email"]];

const newsletter: FormRules = {
  validate(v) {
    const email = v("email").trim();
    if (!email) return [t("forms.newsletter.required"), t("forms.newsletter.requiredText"), ["email"]];
    if (!EMAIL.test(email)) return badEmail();
    return null;
  },
  success: () => [t("forms.newsletter.success"), t("forms.newsletter.successText")],
  get failure(): Message {
    return [t("forms.newsletter.failure"), t("forms.newsletter.failureText")];
  },
};

const contact: FormRules = {
  validate(v) {
    const missing = ["name", "email", "message"].filter((n) => !v(n).trim());
    if (missing.length) return [t("forms.contact.invalid"), t("forms.contact.missingText"), missing];
    if (!EMAIL.test(v("email").trim())) return badEmail();
    if (v("form_type") === "discovery_call" && !v("phone").trim()) {
      return [t("forms.contact.invalid"), t("forms.contact.phoneText"), ["phone"]];
    }
    return null;
  },
  success: (data) => [t("forms.contact.success"), data.form_type === "discovery_call" ? t("forms.contact.discoveryText") : t("forms.contact.messageText")],
  get failure(): Message {
    return [t("forms.contact.failure"), t("forms.contact.failureText")];
  },
};

// The button on /newsletter/confirm: the emailed link only opens the page, so a mail
// scanner that prefetches links subscribes no one.
const confirm: FormRules = {
  validate(v) {
    if (!v("token")) return [t("forms.confirm.failure"), t("forms.confirm.incompleteText"), []];
    return null;
  },
  success: () => [t("forms.confirm.success"), t("forms.confirm.successText")],
  get failure(): Message {
    return [t("forms.confirm.failure"), t("forms.confirm.failureText")];
  },
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
