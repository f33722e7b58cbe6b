// /auth: Sign In and Sign Up tabs; an existing session goes straight to its home (admins to
// /admin, everyone else to /dashboard). Also the landing of the emailed links: ?confirmed=1
// after email confirmation, ?reset=<token> to choose a new password.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { flashAfterRedirect } from "../lib/flash";
import { authRules } from "../lib/AuthForms";
import AuthTabs from "../lib/AuthTabs";
import { Form, FormField, useZodForm } from "../lib/form";
import { mountIsland } from "../lib/mount";
import { type Session, currentSession, go, homeFor, redirectFor } from "../lib/session";
import { Spinner } from "../lib/ui";

const newPasswordRules = () => authRules().then((m) => m.newPasswordSchema);
const resetRequestRules = () => authRules().then((m) => m.resetRequestSchema);

function ResetPassword({ token }: { token: string }) {
  const form = useZodForm<{ password: string }>({ schema: newPasswordRules, defaultValues: { password: "" } });
  const busy = form.formState.isSubmitting;
  const submit = async ({ password }: { password: string }) => {
    try {
      const session = await POST("/api/auth/password-reset/confirm", { token, password });
      flashAfterRedirect("Password changed", "You are signed in with your new password.");
      go(homeFor(session.profile.role));
    } catch (err) {
      form.setError("password", { type: "server", message: err instanceof ApiError ? err.message : "Failed to change the password. Please try again." });
    }
  };
  return (
    <Form form={form} className="form" onSubmit={submit}>
      <h2 className="auth-card__title">Choose a new password</h2>
      <FormField<{ password: string }> name="password" id="reset-password" label="New password" hint="Create a password (min 6 characters)">
        <input className="input" type="password" autoComplete="new-password" />
      </FormField>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? "Saving..." : "Save new password"}
      </button>
    </Form>
  );
}

function ForgotPassword({ onBack }: { onBack: () => void }) {
  const form = useZodForm<{ email: string }>({ schema: resetRequestRules, defaultValues: { email: "" } });
  const [sent, setSent] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  if (sent !== null) {
    return (
      <div className="form" role="status">
        <h2 className="auth-card__title">Check your email</h2>
        <p>If an account exists for {sent}, we have emailed a link to choose a new password. It is valid for one hour.</p>
        <button type="button" className="btn btn--outline" onClick={onBack}>
          Back to sign in
        </button>
      </div>
    );
  }
  const submit = async ({ email }: { email: string }) => {
    try {
      await POST("/api/auth/password-reset", { email });
      setSent(email);
    } catch (err) {
      toast.error("Error", { description: err instanceof ApiError ? err.message : "Please try again." });
    }
  };
  return (
    <Form form={form} className="form" onSubmit={submit}>
      <div>
        <h2 className="auth-card__title">Reset your password</h2>
        <p className="auth-card__lead">Enter the email you signed up with and we will send you a link to choose a new password.</p>
      </div>
      <FormField<{ email: string }> name="email" id="forgot-email" label="Email">
        <input className="input" type="email" autoComplete="email" />
      </FormField>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? "Sending..." : "Email me a reset link"}
      </button>
      <button type="button" className="link-button" onClick={onBack}>
        Back to sign in
      </button>
    </Form>
  );
}

function AuthPage() {
  const params = new URLSearchParams(window.location.search);
  const reset = params.get("reset");
  const [checking, setChecking] = useState(!reset);
  // ?forgot=1: the sign-in form's way out of a wrong-password lock.
  const [forgot, setForgot] = useState(params.get("forgot") === "1");

  useEffect(() => {
    if (params.get("confirmed") === "1") toast.success("Email confirmed", { description: "Thank you. Your email address is confirmed." });
    if (params.get("confirm_error") === "1") toast.error("Confirmation failed", { description: "This confirmation link is invalid or has already been used." });
    if (reset) return;
    currentSession()
      .then((s) => {
        const target = redirectFor("auth", s);
        if (target) go(target);
        else setChecking(false);
      })
      .catch(() => setChecking(false));
    // Runs once on load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (checking) return <Spinner />;
  const done = (s: Session) => go(homeFor(s.profile.role));
  return (
    <div className="auth-card">
      {reset ? (
        <ResetPassword token={reset} />
      ) : forgot ? (
        <ForgotPassword onBack={() => setForgot(false)} />
      ) : (
        <AuthTabs
          onDone={done}
          idPrefix="auth"
          redirects
          afterSignIn={
            <button type="button" className="link-button" onClick={() => setForgot(true)}>
              Forgot your password?
            </button>
          }
        />
      )}
    </div>
  );
}

export const mount = mountIsland(AuthPage);
