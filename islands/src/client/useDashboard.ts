// The client dashboard's data (GET /api/dashboard) and what changes it: the first load (after
// the session check: signed-out visitors go to /auth, admins to /admin), the status filter, a
// reload after a change, and the answer to a pending booking (claim or disown). A newer request
// wins over an older one still on its way.
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../lib/toast";
import type { DashboardView, SessionView } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { type StatusFilter, dashboardQuery } from "../lib/client-views";
import { longDateTime } from "../lib/format";
import { t } from "../lib/i18n";
import { type Session, currentSession, go, redirectFor } from "../lib/session";
import type { Answer } from "./SessionCard";

/** "Failed to load your data. Please try again." */
export const loadError = () => t("client.error.load");

export function useDashboard() {
  const [phase, setPhase] = useState<"loading" | "error" | "ready">("loading");
  const [data, setData] = useState<DashboardView | null>(null);
  const [filter, setFilter] = useState<StatusFilter>("all");
  const [filtering, setFiltering] = useState(false);
  const [session, setSession] = useState<Session | null>(null);
  const request = useRef(0);

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
      toast.error(t("common.error.title"), { description: loadError() });
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
      toast.error(t("common.error.title"), { description: loadError() });
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
      toast.error(t("common.error.title"), { description: loadError() });
    }
  };

  const [answering, setAnswering] = useState<string | null>(null);
  const answer = async (session: SessionView, what: Answer) => {
    setAnswering(session.id);
    try {
      await POST(what === "claim" ? "/api/bookings/{id}/claim" : "/api/bookings/{id}/disown", {}, { path: { id: session.id } });
      if (what === "claim") {
        toast.success(t("client.claim.done"), { description: t("client.claim.doneText", { when: longDateTime(session.sessionDate) }) });
      } else {
        toast.success(t("client.disown.done"), { description: t("client.disown.doneText") });
      }
      const mine = ++request.current;
      const view = await GET("/api/dashboard", { query: dashboardQuery(filter) });
      if (mine === request.current) {
        setData((d) => ({ ...view, account: d ? { ...view.account, showPaymentHistory: d.account.showPaymentHistory } : view.account }));
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        toast.error(t("common.insufficientCredits"), { description: t("client.claim.noCredits") });
      } else {
        console.error("booking answer", e);
        toast.error(t("common.error.title"), { description: e instanceof ApiError ? e.message : loadError() });
      }
    } finally {
      setAnswering(null);
    }
  };

  return { phase, data, setData, filter, filtering, session, start, changeFilter, reload, answering, answer };
}
