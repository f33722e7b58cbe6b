// /auth: Sign In and Sign Up tabs; an existing session goes straight to its home (admins to
// /admin, everyone else to /dashboard). Also the landing of the emailed links: ?confirmed=1
// after email confirmation, ?reset=<token> to choose a new password.
import { useEffect, useState } from "react";
import { toast } from "../lib/toast";
import { ApiError, POST } from "../lib/api";
import { flashAfterRedirect } from "../lib/flash";
import { authRules } from "../lib/AuthForms";
import AuthTabs from "../lib/AuthTabs";
import { Form, FormField, useZodForm } from "../lib/form";
import { t } from "../lib/i18n";
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
      flashAfterRedirect(t("auth.reset.changed"), t("auth.reset.changedText"));
      go(homeFor(session.profile.role));
    } catch (err) {
      form.setError("password", { type: "server", message: err instanceof ApiError ? err.message : t("auth.reset.changeFailed") });
    }
  };
  return (
    <Form form={form} className="form" onSubmit={submit}>
      <h2 className="auth-card__title">{t("auth.reset.chooseTitle")}</h2>
      <FormField<{ password: string }> name="password" id="reset-password" label={t("auth.reset.newPassword")} hint={t("auth.field.passwordHint")}>
        <input className="input" type="password" autoComplete="new-password" />
      </FormField>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? t("auth.reset.saving") : t("auth.reset.save")}
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
        <h2 className="auth-card__title">{t("auth.reset.checkEmail")}</h2>
        <p>{t("auth.reset.sent", { email: sent })}</p>
        <button type="button" className="btn btn--outline" onClick={onBack}>
          {t("auth.reset.back")}
        </button>
      </div>
    );
  }
  const submit = async ({ email }: { email: string }) => {
    try {
      await POST("/api/auth/password-reset", { email });
      setSent(email);
    } catch (err) {
      toast.error(t("common.error.title"), { description: err instanceof ApiError ? err.message : t("common.error.retry") });
    }
  };
  return (
    <Form form={form} className="form" onSubmit={submit}>
      <div>
        <h2 className="auth-card__title">{t("auth.reset.link")}</h2>
        <p className="auth-card__lead">{t("auth.reset.lead")}</p>
      </div>
      <FormField<{ email: string }> name="email" id="forgot-email" label={t("auth.field.email")}>
        <input className="input" type="email" autoComplete="email" />
      </FormField>
      <button className="btn btn--navy btn--block" type="submit" disabled={busy}>
        {busy ? t("auth.reset.sending") : t("auth.reset.send")}
      </button>
      <button type="button" className="link-button" onClick={onBack}>
        {t("auth.reset.back")}
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
    if (params.get("confirmed") === "1") toast.success(t("auth.confirmed"), { description: t("auth.confirmed.text") });
    if (params.get("confirm_error") === "1") toast.error(t("auth.confirmFailed"), { description: t("auth.confirmFailed.text") });
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
              {t("auth.forgot")}
            </button>
          }
        />
      )}
    </div>
  );
}

export const mount = mountIsland(AuthPage, ["auth"]);
