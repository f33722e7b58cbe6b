// The rules and messages of the sign-in, sign-up and password forms (spec §5, §8) as zod
// schemas. The forms load this module (and zod) on intent: see `authRules` in ./AuthForms.
import * as z from "zod/mini";
import { EMAIL, msg } from "./validate";

// zod/mini: the tree-shakable build, a few KB instead of the full library.
const email = z.string().check(z.trim(), z.minLength(1, msg("auth.rule.emailRequired")), z.regex(EMAIL, msg("auth.rule.emailInvalid")));

export const signInSchema = z.object({
  email,
  password: z.string().check(z.minLength(1, msg("auth.rule.passwordRequired"))),
});

export const signUpSchema = z.object({
  fullName: z.string().check(z.trim(), z.minLength(1, msg("auth.rule.nameRequired"))),
  email,
  password: z.string().check(z.minLength(6, msg("auth.rule.passwordShort"))),
  phone: z.string().check(z.trim()),
});

/** The new password of the emailed reset link. */
export const newPasswordSchema = z.object({
  password: z.string().check(z.minLength(6, msg("auth.rule.passwordShort"))),
});

/** The email a reset link goes to: the API answers the same for any text, so nothing to check. */
export const resetRequestSchema = z.object({ email: z.string() });

export type SignInValues = z.infer<typeof signInSchema>;
export type SignUpValues = z.input<typeof signUpSchema>;
