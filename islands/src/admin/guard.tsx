// The admin guard shared by /admin and /admin/add-payment (spec §6), and the block shown when
// the page's data did not load.
import { Component, type ReactNode, useEffect, useState } from "react";
import { toast } from "../lib/toast";
import { t } from "../lib/i18n";
import { type Session, currentSession, go, redirectFor } from "../lib/session";

/** "Failed to load admin data. Please try again." */
export const loadError = () => t("admin.error.load");

/**
 * The signed-in admin, or null while checking. Signed-out visitors go to /auth and everyone
 * else to /dashboard (spec §6); `failed` is true when the check itself could not be made.
 */
export function useAdminSession(): { session: Session | null; failed: boolean } {
  const [session, setSession] = useState<Session | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    currentSession()
      .then((s) => {
        if (!live) return;
        const target = redirectFor("admin", s);
        if (target) go(target);
        else setSession(s);
      })
      .catch(() => {
        if (!live) return;
        setFailed(true);
        toast.error(t("common.error.title"), { description: loadError() });
      });
    return () => {
      live = false;
    };
  }, []);
  return { session, failed };
}

/** The block shown instead of a page whose data did not load. */
export function LoadFailed({ text = loadError() }: { text?: string }) {
  return (
    <div className="panel empty" role="alert">
      <p className="empty__title">{t("admin.error.somethingWrong")}</p>
      <p>{text}</p>
      <button type="button" className="btn btn--navy btn--sm" onClick={() => window.location.reload()}>
        {t("common.tryAgain")}
      </button>
    </div>
  );
}

/** A lazily loaded tab whose code could not be fetched (a dropped connection) says so, instead
 *  of taking the whole dashboard down with it. */
export class TabBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error("admin tab", error);
  }
  override render() {
    return this.state.failed ? <LoadFailed /> : this.props.children;
  }
}
