// The admin dashboard's head: who is signed in, and Sign Out.
import { useState } from "react";
import { toast } from "sonner";
import { type Session, go, signOut } from "../lib/session";

export function AdminHead({ session }: { session: Session }) {
  const [signingOut, setSigningOut] = useState(false);
  return (
    <div className="dash-head admin-head">
      <p className="dash-head__name">
        Signed in as <strong className="admin-head__name">{session.profile.full_name}</strong>
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
            toast.error("Error", { description: "Failed to sign out. Please try again." });
          }
        }}
      >
        {signingOut ? "Signing out..." : "Sign Out"}
      </button>
    </div>
  );
}
