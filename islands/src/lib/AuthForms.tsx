// Sign-in and sign-up forms with the spec's rules and messages (§5, §8; ./auth-rules), shared
// by the /auth page and the purchase dialog (which words its success toasts differently).
import { useState } from "react";
import { toast } from "./toast";
import { ApiError } from "./api";
import type { SignInValues, SignUpValues } from "./auth-rules";
import { flashAfterRedirect } from "./flash";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "./form";
import { showAccountLink } from "./account-link";
import { localPath, t } from "./i18n";
import { type Session, signIn, signUp } from "./session";

/** The rules, with zod, load on the forms' first focus or hover (or on submit). */
export const authRules = lazySchema(() => import("./auth-rules"));
const signInRules = () => authRules().then((m) => m.signInSchema);
const signUpRules = () => authRules().then((m) => m.signUpSchema);

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

/** The API's word for a refused request, or the form's own when the server failed. */
const refusal = (e: unknown, fallback: string) => (e instanceof ApiError && e.status !== 0 && e.status < 500 ? e.message : fallback);

export function SignInForm({ onDone, successText = t("auth.signIn.success"), idPrefix = "signin", redirects }: Props) {
  const form = useZodForm<SignInValues>({ schema: signInRules, defaultValues: { email: "", password: "" } });
  // Too many wrong passwords lock the account for a while; the owner gets the way out here.
  const [locked, setLocked] = useState<string | null>(null);
  const submit = async (values: SignInValues) => {
    setLocked(null);
    try {
      const session = await signIn(values.email.trim(), values.password);
      announce(redirects, t("auth.signIn.welcome"), successText);
      onDone(session);
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) setLocked(e.message);
      toast.error(t("auth.signIn.failed"), { description: refusal(e, t("auth.signIn.error")) });
    }
  };
  const busy = form.formState.isSubmitting;
  return (
    <Form form={form} className="form" onSubmit={submit} onInvalid={() => setLocked(null)}>
      {locked ? (
        <p className="form-alert" role="alert">
          {locked} <a href={localPath("/auth?forgot=1")}>{t("auth.reset.link")}</a>
        </p>
      ) : null}
      <FormField<SignInValues> name="email" id={`${idPrefix}-email`} label={t("auth.field.email")}>
        <input className="input" type="email" autoComplete="email" />
      </FormField>
      <FormField<SignInValues> name="password" id={`${idPrefix}-password`} label={t("auth.field.password")}>
        <input className="input" type="password" autoComplete="current-password" />
      </FormField>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? t("auth.signIn.busy") : t("auth.signIn")}
      </button>
    </Form>
  );
}

/** The API names the full name `full_name`. */
const apiName = (name: keyof SignUpValues) => (name === "fullName" ? "full_name" : name);

export function SignUpForm({ onDone, successText = t("auth.signUp.success"), idPrefix = "signup", redirects }: Props) {
  const form = useZodForm<SignUpValues>({ schema: signUpRules, defaultValues: { fullName: "", email: "", password: "", phone: "" } });
  const submit = async (values: SignUpValues) => {
    try {
      const session = await signUp(values.fullName.trim(), values.email.trim(), values.password, values.phone.trim());
      announce(redirects, t("auth.signUp.created"), successText);
      onDone(session);
    } catch (e) {
      if (e instanceof ApiError) showServerErrors(form, e.fields, ["fullName", "email", "password", "phone"], apiName);
      toast.error(t("auth.signUp.failed"), { description: refusal(e, t("auth.signUp.error")) });
    }
  };
  const busy = form.formState.isSubmitting;
  return (
    <Form form={form} className="form" onSubmit={submit}>
      <FormField<SignUpValues> name="fullName" id={`${idPrefix}-name`} label={t("auth.field.fullName")}>
        <input className="input" autoComplete="name" />
      </FormField>
      <FormField<SignUpValues> name="email" id={`${idPrefix}-email`} label={t("auth.field.email")}>
        <input className="input" type="email" autoComplete="email" />
      </FormField>
      <FormField<SignUpValues> name="phone" id={`${idPrefix}-phone`} label={t("auth.field.phoneOptional")}>
        <input className="input" type="tel" autoComplete="tel" />
      </FormField>
      <FormField<SignUpValues> name="password" id={`${idPrefix}-password`} label={t("auth.field.password")} hint={t("auth.field.passwordHint")}>
        <input className="input" type="password" autoComplete="new-password" placeholder={t("auth.field.passwordHint")} />
      </FormField>
      <button className="btn btn--gold btn--block" type="submit" disabled={busy}>
        {busy ? t("auth.signUp.busy") : t("auth.signUp")}
      </button>
    </Form>
  );
}
