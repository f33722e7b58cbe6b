// /dashboard (spec §2): session credits, quick actions, upcoming sessions with a status filter,
// and the payment history the client may show or hide (the only change a client makes, §4).
// A booking made on the scheduling page with the client's email but without the client link of
// /book-session is pending and not theirs yet: its card offers 'Use 1 credit for this session'
// and 'This wasn't me'.
// Signed-out visitors go to /auth, admins to /admin.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError, GET, POST, PUT } from "../lib/api";
import { type AccountView, type DashboardView, type PaymentRecordView, type SessionView } from "../api/types";
import {
  STATUS_FILTERS,
  type StatusFilter,
  dashboardQuery,
  emptySessionsText,
  filterLabel,
  joinLink,
  receiptPath,
  schedulerLinkText,
  sessionTitle,
  webUrl,
} from "../lib/client-views";
import { formatMoney, longDateTime, sessions, shortDate } from "../lib/format";
import { mountIsland } from "../lib/mount";
import { ConfirmEmailBanner } from "../lib/ConfirmEmail";
import { type Session, currentSession, go, redirectFor, signOut } from "../lib/session";
import { Spinner, StatusBadge } from "../lib/ui";
import { SessionActions } from "../client/SessionActions";

const LOAD_ERROR = "Failed to load your data. Please try again.";

function Credits({ account }: { account: AccountView }) {
  return (
    <section className="panel client-card" aria-labelledby="client-credits-title">
      <h2 className="panel__title" id="client-credits-title">
        Session Credits
      </h2>
      <dl className="client-credits">
        <div className="stat client-stat--highlight">
          <dt className="stat__label">Available Credits</dt>
          <dd className="stat__value">{account.availableCredits}</dd>
        </div>
        <div className="stat">
          <dt className="stat__label">Total Purchased</dt>
          <dd className="stat__value">{account.totalCredits}</dd>
        </div>
        <div className="stat">
          <dt className="stat__label">Sessions Completed</dt>
          <dd className="stat__value">{account.sessionsCompleted}</dd>
        </div>
      </dl>
      {account.nextExpiry ? (
        <p className="client-credits__last client-credits__expiry">
          {account.nextExpiry.credits === 1 ? "1 credit expires" : `${account.nextExpiry.credits} credits expire`} on{" "}
          <time dateTime={account.nextExpiry.expiresOn}>{shortDate(account.nextExpiry.expiresOn)}</time>
        </p>
      ) : null}
      {account.lastPaymentDate ? (
        <p className="client-credits__last">
          Last payment: <time dateTime={account.lastPaymentDate}>{shortDate(account.lastPaymentDate)}</time>
        </p>
      ) : null}
    </section>
  );
}

function QuickActions({ schedulerName, schedulerUrl, newTabNote }: { schedulerName: string; schedulerUrl: string; newTabNote: string }) {
  const external = webUrl(schedulerUrl);
  return (
    <section className="panel client-card" aria-labelledby="client-actions-title">
      <h2 className="panel__title" id="client-actions-title">
        Quick Actions
      </h2>
      <div className="client-actions">
        <a className="btn btn--gold" href="/book-session">
          Book New Session
        </a>
        <a className="btn btn--outline" href="/pricing">
          Buy Credits
        </a>
        {external ? (
          <a className="btn btn--outline" href={external} target="_blank" rel="noopener" aria-describedby={newTabNote}>
            {schedulerLinkText(schedulerName)}
            <ExternalIcon />
          </a>
        ) : null}
      </div>
    </section>
  );
}

function ExternalIcon() {
  return (
    <svg className="icon icon--sm" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
  );
}

type Answer = "claim" | "disown";

function SessionCard({
  session,
  newTabNote,
  busy,
  onAnswer,
  onChanged,
}: {
  session: SessionView;
  newTabNote: string;
  busy: boolean;
  onAnswer: (session: SessionView, answer: Answer) => void;
  onChanged: () => void;
}) {
  const meet = joinLink(session);
  const titleId = useId();
  const asks = session.canClaim || session.canDisown;
  return (
    <li className="client-session" aria-labelledby={titleId}>
      <div className="client-session__head">
        <h3 className="client-session__title" id={titleId}>
          {sessionTitle(session.sessionNotes)}
        </h3>
        <StatusBadge status={session.status} />
      </div>
      <p className="client-session__date">
        <CalendarIcon />
        <time dateTime={session.sessionDate}>{longDateTime(session.sessionDate)}</time>
      </p>
      {meet ? (
        <a className="btn btn--navy btn--sm client-session__join" href={meet} target="_blank" rel="noopener" aria-describedby={newTabNote}>
          Join Meeting
        </a>
      ) : null}
      <SessionActions session={session} newTabNote={newTabNote} onCancelled={onChanged} />
      {asks ? (
        <div className="client-session__ask" role="group" aria-label={`Pending session on ${longDateTime(session.sessionDate)}`}>
          <p className="client-session__note">
            {session.canDisown
              ? "This session was booked on our calendar with your email address, but not from your Book a Session page, so no credit was used. Is it yours?"
              : "No credit was available when this session was booked, so it is not confirmed yet."}
          </p>
          <div className="client-session__actions">
            {session.canClaim ? (
              <button type="button" className="btn btn--gold btn--sm" disabled={busy} aria-busy={busy} onClick={() => onAnswer(session, "claim")}>
                Use 1 credit for this session
              </button>
            ) : null}
            {session.canDisown ? (
              <button type="button" className="btn btn--outline btn--sm" disabled={busy} onClick={() => onAnswer(session, "disown")}>
                This wasn&apos;t me
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </li>
  );
}

function CalendarIcon() {
  return (
    <svg className="icon icon--sm" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M3 10h18" />
    </svg>
  );
}

function UpcomingSessions(props: {
  sessions: SessionView[];
  filter: StatusFilter;
  busy: boolean;
  onFilter: (f: StatusFilter) => void;
  newTabNote: string;
  answering: string | null;
  onAnswer: (session: SessionView, answer: Answer) => void;
  onChanged: () => void;
}) {
  const { filter, busy } = props;
  const [filtered, setFiltered] = useState(false);
  return (
    <section className="panel client-card client-card--wide" aria-labelledby="client-sessions-title">
      <div className="client-panel-head">
        <h2 className="panel__title" id="client-sessions-title">
          Upcoming Sessions
        </h2>
        <div className="client-filter" role="group" aria-label="Filter sessions by status">
          {STATUS_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className="client-filter__btn"
              aria-pressed={f === filter}
              onClick={() => {
                if (f === filter) return;
                setFiltered(true);
                props.onFilter(f);
              }}
            >
              {filterLabel(f)}
            </button>
          ))}
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {busy ? "Loading sessions…" : filtered ? `${filterLabel(filter)}: ${sessions(props.sessions.length)}` : ""}
      </p>
      <div className={busy ? "client-sessions client-sessions--busy" : "client-sessions"} aria-busy={busy}>
        {props.sessions.length > 0 ? (
          <ul className="client-session-list">
            {props.sessions.map((s) => (
              <SessionCard key={s.id} session={s} newTabNote={props.newTabNote} busy={props.answering === s.id} onAnswer={props.onAnswer} onChanged={props.onChanged} />
            ))}
          </ul>
        ) : (
          <div className="empty">
            <p className="empty__title">{emptySessionsText(filter)}</p>
            <p>Book directly through our calendar system</p>
            <a className="btn btn--gold btn--sm client-empty-action" href="/book-session">
              Book a Session
            </a>
          </div>
        )}
      </div>
    </section>
  );
}

function PaymentRow({ payment }: { payment: PaymentRecordView }) {
  const refund = payment.kind === "refund";
  return (
    <li className="client-payment">
      <div className="client-payment__main">
        <span className="client-payment__amount">
          {refund ? "Refund: " : null}
          {formatMoney(payment.amount)}
        </span>
        <span className="client-payment__sessions">
          {refund ? `${payment.sessionsPurchased} ${payment.sessionsPurchased === 1 ? "credit" : "credits"} removed` : sessions(payment.sessionsPurchased)}
        </span>
      </div>
      <div className="client-payment__meta">
        <time dateTime={payment.paymentDate}>{shortDate(payment.paymentDate)}</time>
        {payment.referenceNumber ? <span className="badge badge--outline client-payment__ref">#{payment.referenceNumber}</span> : null}
        <a className="client-payment__receipt" href={receiptPath(payment)}>
          Receipt
          <span className="visually-hidden">
            {refund ? ` of the payment refunded on ${shortDate(payment.paymentDate)}` : ` for the payment of ${shortDate(payment.paymentDate)}`}
          </span>
        </a>
      </div>
    </li>
  );
}

function PaymentHistory(props: { account: AccountView; payments: PaymentRecordView[]; onAccount: (a: AccountView) => void }) {
  const checkboxId = useId();
  const shown = props.account.showPaymentHistory;
  // The checkbox answers at once; the account (and so the card) changes only when the server
  // accepted the change, and the checkbox rolls back otherwise (spec §4).
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  // After a switch between the two cards, focus goes to the control of the new one.
  const moveFocus = useRef(false);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const hideRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (shown ? hideRef.current : checkboxRef.current)?.focus();
  }, [shown]);

  const change = async (show: boolean) => {
    setBusy(true);
    try {
      const account = await PUT("/api/dashboard/payment-history", { show });
      moveFocus.current = account.showPaymentHistory !== shown;
      setChecked(account.showPaymentHistory);
      props.onAccount(account);
    } catch (e) {
      console.error("payment history preference", e);
      toast.error("Error", { description: "Failed to update payment history preference." });
      setChecked(!show);
    } finally {
      setBusy(false);
    }
  };

  if (!shown) {
    return (
      <section className="panel panel--dashed client-card client-card--wide" aria-labelledby="client-payments-title">
        <h2 className="visually-hidden" id="client-payments-title">
          Payment History
        </h2>
        <div className="client-check">
          <input
            ref={checkboxRef}
            className="client-check__input"
            id={checkboxId}
            type="checkbox"
            checked={checked}
            disabled={busy}
            aria-describedby={`${checkboxId}-hint`}
            onChange={(e) => {
              setChecked(e.target.checked);
              if (e.target.checked) void change(true);
            }}
          />
          <label className="client-check__label" htmlFor={checkboxId}>
            Show payment history
          </label>
        </div>
        <p className="client-check__hint" id={`${checkboxId}-hint`}>
          Your payment records are hidden from this dashboard.
        </p>
      </section>
    );
  }

  return (
    <section className="panel client-card client-card--wide" aria-labelledby="client-payments-title">
      <div className="client-panel-head">
        <h2 className="panel__title" id="client-payments-title">
          Payment History
        </h2>
        <button
          ref={hideRef}
          type="button"
          className="link-button client-hide"
          disabled={busy}
          aria-label="Hide payment history"
          onClick={() => {
            setChecked(false);
            void change(false);
          }}
        >
          {busy ? "Hiding..." : "Hide"}
        </button>
      </div>
      {props.payments.length > 0 ? (
        <ul className="client-payments">
          {props.payments.slice(0, 10).map((p) => (
            <PaymentRow key={p.id} payment={p} />
          ))}
        </ul>
      ) : (
        <div className="empty">
          <p className="empty__title">No payment records</p>
        </div>
      )}
    </section>
  );
}

function ClientDashboard() {
  const [phase, setPhase] = useState<"loading" | "error" | "ready">("loading");
  const [data, setData] = useState<DashboardView | null>(null);
  const [filter, setFilter] = useState<StatusFilter>("all");
  const [filtering, setFiltering] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [session, setSession] = useState<Session | null>(null);
  const request = useRef(0);
  const newTabNote = useId();

  const start = useCallback(async () => {
    const mine = ++request.current;
    setPhase("loading");
    try {
      const current = await currentSession();
      const target = redirectFor("dashboard", current);
      if (target) return go(target);
      setSession(current);
      const view = await GET("/api/dashboard", { query: dashboardQuery("all") });
      if (mine !== request.current) return;
      setData(view);
      setFilter("all");
      setPhase("ready");
    } catch (e) {
      if (mine !== request.current) return;
      console.error("dashboard load", e);
      toast.error("Error", { description: LOAD_ERROR });
      setPhase("error");
    }
  }, []);

  useEffect(() => {
    void start();
  }, [start]);

  const changeFilter = async (next: StatusFilter) => {
    const mine = ++request.current;
    const previous = filter;
    setFilter(next);
    setFiltering(true);
    try {
      const view = await GET("/api/dashboard", { query: dashboardQuery(next) });
      if (mine !== request.current) return;
      // Keep the payment-history preference the client may have changed meanwhile.
      setData((d) => ({ ...view, account: d ? { ...view.account, showPaymentHistory: d.account.showPaymentHistory } : view.account }));
    } catch (e) {
      if (mine !== request.current) return;
      console.error("dashboard filter", e);
      toast.error("Error", { description: LOAD_ERROR });
      setFilter(previous);
    } finally {
      if (mine === request.current) setFiltering(false);
    }
  };

  const reload = async () => {
    const mine = ++request.current;
    try {
      const view = await GET("/api/dashboard", { query: dashboardQuery(filter) });
      if (mine === request.current) {
        setData((d) => ({ ...view, account: d ? { ...view.account, showPaymentHistory: d.account.showPaymentHistory } : view.account }));
      }
    } catch (e) {
      console.error("dashboard reload", e);
      toast.error("Error", { description: LOAD_ERROR });
    }
  };

  const [answering, setAnswering] = useState<string | null>(null);
  const answer = async (session: SessionView, what: Answer) => {
    setAnswering(session.id);
    try {
      await POST(what === "claim" ? "/api/bookings/{id}/claim" : "/api/bookings/{id}/disown", {}, { path: { id: session.id } });
      if (what === "claim") {
        toast.success("Session confirmed", { description: `Your session on ${longDateTime(session.sessionDate)} is confirmed; 1 credit was used.` });
      } else {
        toast.success("Thank you", { description: "The session is removed from your dashboard, and the coach will look into it. No credit was used." });
      }
      const mine = ++request.current;
      const view = await GET("/api/dashboard", { query: dashboardQuery(filter) });
      if (mine === request.current) {
        setData((d) => ({ ...view, account: d ? { ...view.account, showPaymentHistory: d.account.showPaymentHistory } : view.account }));
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        toast.error("Insufficient Credits", { description: "You have no available credits. Buy credits, then use one for this session." });
      } else {
        console.error("booking answer", e);
        toast.error("Error", { description: e instanceof ApiError ? e.message : LOAD_ERROR });
      }
    } finally {
      setAnswering(null);
    }
  };

  const doSignOut = async () => {
    setSigningOut(true);
    try {
      await signOut();
      go("/");
    } catch (e) {
      console.error("sign out", e);
      toast.error("Error", { description: "Failed to sign out. Please try again." });
      setSigningOut(false);
    }
  };

  if (phase === "loading") return <Spinner label="Loading your dashboard…" />;
  if (phase === "error" || !data) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{LOAD_ERROR}</p>
        <button type="button" className="btn btn--navy" onClick={() => void start()}>
          Try again
        </button>
      </div>
    );
  }

  return (
    <div className="client-dash">
      <div className="dash-head">
        <p className="dash-head__name">
          Welcome back, <strong className="client-who">{data.fullName}</strong>
        </p>
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void doSignOut()} disabled={signingOut} aria-busy={signingOut}>
          {signingOut ? "Signing out..." : "Sign Out"}
        </button>
      </div>
      {session && !session.user.email_confirmed ? <ConfirmEmailBanner email={session.user.email} /> : null}
      <span className="visually-hidden" id={newTabNote}>
        Opens in a new tab
      </span>
      <div className="client-grid">
        <Credits account={data.account} />
        <QuickActions schedulerName={data.schedulerName} schedulerUrl={data.schedulerUrl} newTabNote={newTabNote} />
        <UpcomingSessions sessions={data.upcomingSessions} filter={filter} busy={filtering} onFilter={(f) => void changeFilter(f)}
          newTabNote={newTabNote}
          answering={answering}
          onAnswer={(session, what) => void answer(session, what)}
          onChanged={() => void reload()}
        />
        <PaymentHistory account={data.account} payments={data.payments} onAccount={(account) => setData((d) => (d ? { ...d, account } : d))} />
      </div>
    </div>
  );
}

export const mount = mountIsland(ClientDashboard);
