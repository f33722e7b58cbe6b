// Validation helpers shared by every form: the basic email shape and zod/mini messages per
// field. Kept apart from the forms so an island pulls in only these few lines.
import type * as z from "zod/mini";

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first zod message of each field, or null when the values pass. */
export function zodErrors<T extends object>(schema: z.ZodMiniType<T>, values: T): Partial<Record<keyof T, string>> | null {
  const r = schema.safeParse(values);
  if (r.success) return null;
  const out: Partial<Record<keyof T, string>> = {};
  for (const issue of r.error.issues) {
    const key = issue.path[0] as keyof T;
    out[key] ??= issue.message;
  }
  return out;
}
