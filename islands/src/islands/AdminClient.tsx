// /admin/client?id=… : the coach's view of one client (issue 14 point 4), headed by their
// name: profile, credits by lot (Extend) with adjustments and the ledger, payments with
// receipts and Refund, sessions with Waive, and last the account's access (deactivation).
import { useCallback, useEffect, useState } from "react";
import { toast } from "../lib/toast";
import { CreditsSection } from "../admin/client/CreditsSection";
import { PaymentsSection } from "../admin/client/PaymentsSection";
import { SessionsSection } from "../admin/client/SessionsSection";
import { AccountSection } from "../admin/client/AccountSection";
import { ProfileSection } from "../admin/client/ProfileSection";
import { preloadClientDialogs } from "../admin/client/lazy";
import { LoadFailed, loadError, useAdminSession } from "../admin/guard";
import { ArrowLeftIcon } from "../admin/parts";
import type { BookingView, ClientDetailView, LotView } from "../api/types";
import { ApiError, GET } from "../lib/api";
import { localPath, t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { Spinner } from "../lib/ui";

function AdminClient() {
  const { session, failed } = useAdminSession();
  const [client, setClient] = useState<ClientDetailView | null>(null);
  const [sessions, setSessions] = useState<BookingView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [lots, setLots] = useState<LotView[] | null>(null);
  const [lotsFailed, setLotsFailed] = useState<string | null>(null);
  const id = new URLSearchParams(window.location.search).get("id") ?? "";

  // The lots load on their own: the rest of the page works if they fail.
  const loadLots = useCallback(async () => {
    setLotsFailed(null);
    try {
      setLots(await GET("/api/admin/clients/{id}/lots", { path: { id } }));
    } catch (e) {
      console.error("client lots", e);
      setLotsFailed(e instanceof ApiError && e.status !== 0 ? t("adminClient.lots.failedWith", { message: e.message }) : t("adminClient.lots.failed"));
    }
  }, [id]);

  const load = useCallback(async () => {
    try {
      const [detail, list] = await Promise.all([
        GET("/api/admin/clients/{id}", { path: { id } }),
        GET("/api/admin/sessions", { query: { client_id: id } }),
      ]);
      setClient(detail);
      setSessions(list);
    } catch (e) {
      console.error("client page", e);
      if (e instanceof ApiError && e.status === 404) setProblem(t("adminClient.notFound"));
      else {
        setProblem(loadError());
        toast.error(t("common.error.title"), { description: loadError() });
      }
    }
  }, [id]);

  // Everything a refund or a waive changes: the totals, the ledger, the lots and the sessions.
  const reloadAll = useCallback(() => {
    void load();
    void loadLots();
  }, [load, loadLots]);

  useEffect(() => {
    if (session) reloadAll();
  }, [session, reloadAll]);

  // Fetch the dialogs' code once the page is up, so the first click does not wait for it.
  const ready = client !== null;
  useEffect(() => {
    if (!ready) return;
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(() => preloadClientDialogs());
  }, [ready]);

  // The page's heading (the template's "Client") becomes the client's name, and so does the
  // tab's title, once they are known.
  const name = client?.fullName;
  useEffect(() => {
    if (!name) return;
    const heading = document.getElementById("app-title");
    if (heading) heading.textContent = name;
    const [, ...rest] = document.title.split(" | ");
    document.title = [name, ...rest].join(" | ");
  }, [name]);

  if (failed) return <LoadFailed />;
  if (problem) return <LoadFailed text={problem} />;
  if (!session || !client) return <Spinner label={t("adminClient.loading")} />;
  return (
    <div className="admin-client">
      <p>
        <a className="btn btn--outline btn--sm" href={localPath("/admin#clients")}>
          <ArrowLeftIcon />
          {t("adminClient.back")}
        </a>
      </p>
      <ProfileSection client={client} onChange={setClient} />
      <CreditsSection
        client={client}
        onChange={setClient}
        lots={{
          lots,
          failed: lotsFailed,
          reload: () => void loadLots(),
          onExtended: (lot) => setLots((all) => all?.map((l) => (l.id === lot.id ? lot : l)) ?? [lot]),
        }}
      />
      <PaymentsSection payments={client.payments} refunds={client.refunds} clientName={client.fullName} onRefunded={reloadAll} />
      <SessionsSection sessions={sessions} onChanged={reloadAll} />
      <AccountSection client={client} onChange={setClient} />
    </div>
  );
}

export const mount = mountIsland(AdminClient, ["admin", "adminClient"]);
