// /dashboard (spec §2): session credits, quick actions, upcoming sessions with a status filter,
// and the payment history the client may show or hide (the only change a client makes, §4).
// A booking made on the scheduling page with the client's email but without the client link of
// /book-session is pending and not theirs yet: its card offers 'Use 1 credit for this session'
// and 'This wasn't me'. The parts are in ../client; the data in ../client/useDashboard.
// Signed-out visitors go to /auth, admins to /admin.
import { useId, useState } from "react";
import { toast } from "../lib/toast";
import { CreditsCard, sponsoredOf } from "../client/CreditsCard";
import { EmailLanguage } from "../client/EmailLanguage";
import { PaymentHistory } from "../client/PaymentHistory";
import { PendingTransfers } from "../client/PendingTransfers";
import { QuickActions } from "../client/QuickActions";
import { UpcomingSessions } from "../client/UpcomingSessions";
import { loadError, useDashboard } from "../client/useDashboard";
import { ConfirmEmailBanner } from "../lib/ConfirmEmail";
import { t } from "../lib/i18n";
import { rich } from "../lib/rich";
import { mountIsland } from "../lib/mount";
import { go, signOut } from "../lib/session";
import { Spinner } from "../lib/ui";

function ClientDashboard() {
  const { phase, data, setData, filter, filtering, session, start, changeFilter, reload, answering, answer } = useDashboard();
  const [signingOut, setSigningOut] = useState(false);
  const newTabNote = useId();

  const doSignOut = async () => {
    setSigningOut(true);
    try {
      await signOut();
      go("/");
    } catch (e) {
      console.error("sign out", e);
      toast.error(t("common.error.title"), { description: t("common.signOut.failed") });
      setSigningOut(false);
    }
  };

  if (phase === "loading") return <Spinner label={t("client.dash.loading")} />;
  if (phase === "error" || !data) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{loadError()}</p>
        <button type="button" className="btn btn--navy" onClick={() => void start()}>
          {t("common.tryAgain")}
        </button>
      </div>
    );
  }

  return (
    <div className="client-dash">
      <div className="dash-head">
        <p className="dash-head__name">
          {rich("client.dash.welcome", { name: data.fullName, strong: (c) => <strong className="client-who">{c}</strong> })}
        </p>
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void doSignOut()} disabled={signingOut} aria-busy={signingOut}>
          {signingOut ? t("common.signOut.busy") : t("common.signOut")}
        </button>
      </div>
      {session && !session.user.email_confirmed ? <ConfirmEmailBanner email={session.user.email} /> : null}
      <span className="visually-hidden" id={newTabNote}>
        {t("client.newTab")}
      </span>
      <div className="client-grid">
        <CreditsCard account={data.account} sponsored={sponsoredOf(data)} />
        <QuickActions schedulerName={data.schedulerName} schedulerUrl={data.schedulerUrl} newTabNote={newTabNote} />
        <PendingTransfers />
        <UpcomingSessions sessions={data.upcomingSessions} filter={filter} busy={filtering} onFilter={(f) => void changeFilter(f)}
          newTabNote={newTabNote}
          answering={answering}
          onAnswer={(session, what) => void answer(session, what)}
          onChanged={() => void reload()}
        />
        <PaymentHistory account={data.account} payments={data.payments} onAccount={(account) => setData((d) => (d ? { ...d, account } : d))} />
        {session ? <EmailLanguage language={session.language} /> : null}
      </div>
    </div>
  );
}

export const mount = mountIsland(ClientDashboard, ["dashboard"]);
