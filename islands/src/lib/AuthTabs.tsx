// Sign In / Sign Up tabs: the /auth page, and the purchase dialog, which loads them on demand
// (only signed-out visitors need the forms, so signed-in buyers never download them).
import * as Tabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { SignInForm, SignUpForm } from "./AuthForms";
import { dir, t } from "./i18n";
import type { Session } from "./session";

interface Props {
  onDone: (s: Session) => void;
  /** Toast description after success; the forms' own default when absent. */
  successText?: string;
  idPrefix: string;
  /** Shown under the sign-in form (the /auth page's "Forgot your password?"). */
  afterSignIn?: ReactNode;
  /** The page leaves once signed in: the next page shows the success toast. */
  redirects?: boolean;
}

export default function AuthTabs({ onDone, successText, idPrefix, afterSignIn, redirects }: Props) {
  return (
    <Tabs.Root defaultValue="signin" className="tabs" dir={dir()}>
      <Tabs.List className="tabs__list" aria-label={t("auth.tabs.label")}>
        <Tabs.Trigger className="tabs__trigger" value="signin">
          {t("auth.signIn")}
        </Tabs.Trigger>
        <Tabs.Trigger className="tabs__trigger" value="signup">
          {t("auth.signUp")}
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content className="tabs__panel" value="signin">
        <SignInForm onDone={onDone} successText={successText} idPrefix={`${idPrefix}-signin`} redirects={redirects} />
        {afterSignIn}
      </Tabs.Content>
      <Tabs.Content className="tabs__panel" value="signup">
        <SignUpForm onDone={onDone} successText={successText} idPrefix={`${idPrefix}-signup`} redirects={redirects} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
