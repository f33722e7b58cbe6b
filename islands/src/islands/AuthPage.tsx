// /auth: Sign In and Sign Up tabs; an existing session goes straight to its home (admins to
// /admin, everyone else to /dashboard). Also the landing of the emailed links: ?confirmed=1
// after email confirmation, ?reset=<token> to choose a new password.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { flashAfterRedirect } from "../lib/flash";
import AuthTabs from "../lib/AuthTabs";
import { mountIsland } from "../lib/mount";
import { type Session, currentSession, go, homeFor, redirectFor } from "../lib/session";
import { Field, Spinner } from "../lib/ui";

function ResetPassword({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (password.length < 6) return setError("Password must be at least 6 characters");
        setBusy(true);
        try {
          const session = await POST("/api/auth/password-reset/confirm", { token, password });
          flashAfterRedirect("Password changed", "You are signed in with your new password.");
          go(homeFor(session.profile.role));
        } catch (err) {
          setError(err instanceof ApiError ? err.message : "Failed to change the password. Please try again.");
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 className="auth-card__title">Choose a new password</h2>
      <Field id="reset-password" label="New password" error={error ?? undefined} hint="Create a password (min 6 characters)">
        <input className="input" id="reset-password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? "Saving..." : "Save new password"}
      </button>
    </form>
  );
}

function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  if (sent) {
    return (
      <div className="form" role="status">
        <h2 className="auth-card__title">Check your email</h2>
        <p>If an account exists for {email}, we have emailed a link to choose a new password. It is valid for one hour.</p>
        <button type="button" className="btn btn--outline" onClick={onBack}>
          Back to sign in
        </button>
      </div>
    );
  }
  return (
    <form
      className="form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await POST("/api/auth/password-reset", { email });
          setSent(true);
        } catch (err) {
          toast.error("Error", { description: err instanceof ApiError ? err.message : "Please try again." });
        } finally {
          setBusy(false);
        }
      }}
    >
      <div>
        <h2 className="auth-card__title">Reset your password</h2>
        <p className="auth-card__lead">Enter the email you signed up with and we will send you a link to choose a new password.</p>
      </div>
      <Field id="forgot-email" label="Email">
        <input className="input" id="forgot-email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? "Sending..." : "Email me a reset link"}
      </button>
      <button type="button" className="link-button" onClick={onBack}>
        Back to sign in
      </button>
    </form>
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
