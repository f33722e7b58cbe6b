// The admin dashboard's head: who is signed in, and Sign Out.
import { useState } from "react";
import { toast } from "../lib/toast";
import { t } from "../lib/i18n";
import { rich } from "../lib/rich";
import { type Session, go, signOut } from "../lib/session";

export function AdminHead({ session }: { session: Session }) {
  const [signingOut, setSigningOut] = useState(false);
  return (
    <div className="dash-head admin-head">
      <p className="dash-head__name">
        {rich("admin.head.signedInAs", { name: session.profile.full_name, strong: (c) => <strong className="admin-head__name">{c}</strong> })}
        <span className="admin-head__email">{session.profile.email}</span>
      </p>
      <button
        type="button"
        className="btn btn--outline btn--sm"
        disabled={signingOut}
        onClick={async () => {
          setSigningOut(true);
          try {
            await signOut();
            go("/");
          } catch {
            setSigningOut(false);
            toast.error(t("common.error.title"), { description: t("common.signOut.failed") });
          }
        }}
      >
        {signingOut ? t("common.signOut.busy") : t("common.signOut")}
      </button>
    </div>
  );
}
