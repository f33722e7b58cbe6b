// Validation helpers shared by the forms' zod schemas: the basic shapes of an email and a day,
// and `parseForm`, a schema's verdict on a form's values as plain data (the field messages, or
// what the form sends), for the pure checks the tests and the refund dialog's summary use.
// The forms themselves go through zodResolver (./form). Type-only zod import: this file pulls
// in no zod of its own. A rule's message comes from the catalogue when the rule fails
// (`msg("auth.error.emailRequired")`), so one schema speaks the page's language.
import type * as z from "zod/mini";
import { type MessageKey, type Values, t } from "./i18n";

/** A zod check's message, in the page's language when the check fails. */
export const msg = (key: MessageKey, values?: Values) => ({ error: () => t(key, values) });

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** YYYY-MM-DD (the shape only). */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Messages per field, as the forms show them. */
export type Errors<K extends string> = Partial<Record<K, string>>;

/** The schema's output, or the first message of each field (the one zodResolver shows). */
export function parseForm<In extends object, Out>(
  schema: z.ZodMiniType<Out, In>,
  values: In,
): { ok: true; value: Out } | { ok: false; errors: Errors<keyof In & string> } {
  const r = schema.safeParse(values);
  if (r.success) return { ok: true, value: r.data };
  const errors: Errors<keyof In & string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path[0] as keyof In & string;
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The first message in the fields' order. */
export function firstOf<K extends string>(errors: Errors<K>, order: readonly K[]): string | undefined {
  return order.map((k) => errors[k]).find((m): m is string => !!m);
}
