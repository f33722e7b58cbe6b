// Sign-in and sign-up forms with the spec's rules and messages (§5, §8), shared by the /auth
// page and the purchase dialog (which words its success toasts differently).
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import * as z from "zod/mini";
import { ApiError } from "./api";
import { flashAfterRedirect } from "./flash";
import { showAccountLink } from "./hint";
import { type Session, signIn, signUp } from "./session";
import { Field } from "./ui";
import { EMAIL, zodErrors } from "./validate";

// zod/mini: the tree-shakable build, a few KB instead of the full library.
const email = z.string().check(z.trim(), z.minLength(1, "Email is required"), z.regex(EMAIL, "Invalid email address"));

const signInSchema = z.object({
  email,
  password: z.string().check(z.minLength(1, "Password is required")),
});

const signUpSchema = z.object({
  fullName: z.string().check(z.trim(), z.minLength(1, "Full name is required")),
  email,
  password: z.string().check(z.minLength(6, "Password must be at least 6 characters")),
  phone: z.optional(z.string()),
});

type SignInValues = z.infer<typeof signInSchema>;
type SignUpValues = z.infer<typeof signUpSchema>;


interface Props {
  /** Called once signed in; the page decides where to go. */
  onDone: (session: Session) => void;
  /** Toast description after success (the purchase dialog says it differently). */
  successText?: string | undefined;
  idPrefix?: string;
  /** The page leaves once signed in (/auth): the next page shows the success toast. */
  redirects?: boolean | undefined;
}

function announce(redirects: boolean | undefined, title: string, description: string) {
  if (redirects) return flashAfterRedirect(title, description);
  toast.success(title, { description });
  // Staying on the page (the purchase dialog): the header now says who is signed in.
  showAccountLink();
}

export function SignInForm({ onDone, successText = "You have successfully signed in.", idPrefix = "signin", redirects }: Props) {
  const { register, handleSubmit, setError, formState } = useForm<SignInValues>({ defaultValues: { email: "", password: "" } });
  // Too many wrong passwords lock the account for a while; the owner gets the way out here.
  const [locked, setLocked] = useState<string | null>(null);
  const submit = handleSubmit(async (values) => {
    setLocked(null);
    const errors = zodErrors(signInSchema, values);
    if (errors) {
      for (const [k, v] of Object.entries(errors)) setError(k as keyof SignInValues, { message: v as string });
      return;
    }
    try {
      const session = await signIn(values.email.trim(), values.password);
      announce(redirects, "Welcome back!", successText);
      onDone(session);
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) setLocked(e.message);
      toast.error("Sign in failed", { description: e instanceof ApiError && e.status !== 0 && e.status < 500 ? e.message : "Failed to sign in. Please try again." });
    }
  });
  const err = formState.errors;
  return (
    <form className="form" onSubmit={submit} noValidate>
      {locked ? (
        <p className="form-alert" role="alert">
          {locked} <a href="/auth?forgot=1">Reset your password</a>
        </p>
      ) : null}
      <Field id={`${idPrefix}-email`} label="Email" error={err.email?.message}>
        <input className="input" id={`${idPrefix}-email`} type="email" autoComplete="email" aria-invalid={!!err.email} {...register("email")} />
      </Field>
      <Field id={`${idPrefix}-password`} label="Password" error={err.password?.message}>
        <input className="input" id={`${idPrefix}-password`} type="password" autoComplete="current-password" aria-invalid={!!err.password} {...register("password")} />
      </Field>
      <button className="btn btn--navy btn--block" type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Signing in..." : "Sign In"}
      </button>
    </form>
  );
}

export function SignUpForm({ onDone, successText = "Please check your email to confirm your account.", idPrefix = "signup", redirects }: Props) {
  const { register, handleSubmit, setError, formState } = useForm<SignUpValues>({ defaultValues: { fullName: "", email: "", password: "", phone: "" } });
  const submit = handleSubmit(async (values) => {
    const errors = zodErrors(signUpSchema, values);
    if (errors) {
      for (const [k, v] of Object.entries(errors)) setError(k as keyof SignUpValues, { message: v as string });
      return;
    }
    try {
      const session = await signUp(values.fullName.trim(), values.email.trim(), values.password, values.phone?.trim());
      announce(redirects, "Account created!", successText);
      onDone(session);
    } catch (e) {
      if (e instanceof ApiError && e.fields) {
        const map: Record<string, keyof SignUpValues> = { full_name: "fullName", email: "email", password: "password", phone: "phone" };
        for (const [k, v] of Object.entries(e.fields)) if (map[k]) setError(map[k], { message: v });
      }
      toast.error("Sign up failed", { description: e instanceof ApiError && e.status !== 0 && e.status < 500 ? e.message : "Failed to create account. Please try again." });
    }
  });
  const err = formState.errors;
  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field id={`${idPrefix}-name`} label="Full Name" error={err.fullName?.message}>
        <input className="input" id={`${idPrefix}-name`} autoComplete="name" aria-invalid={!!err.fullName} {...register("fullName")} />
      </Field>
      <Field id={`${idPrefix}-email`} label="Email" error={err.email?.message}>
        <input className="input" id={`${idPrefix}-email`} type="email" autoComplete="email" aria-invalid={!!err.email} {...register("email")} />
      </Field>
      <Field id={`${idPrefix}-phone`} label="Phone (optional)" error={err.phone?.message}>
        <input className="input" id={`${idPrefix}-phone`} type="tel" autoComplete="tel" {...register("phone")} />
      </Field>
      <Field id={`${idPrefix}-password`} label="Password" error={err.password?.message} hint="Create a password (min 6 characters)">
        <input
          className="input"
          id={`${idPrefix}-password`}
          type="password"
          autoComplete="new-password"
          placeholder="Create a password (min 6 characters)"
          aria-invalid={!!err.password}
          {...register("password")}
        />
      </Field>
      <button className="btn btn--gold btn--block" type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? "Creating account..." : "Sign Up"}
      </button>
    </form>
  );
}
