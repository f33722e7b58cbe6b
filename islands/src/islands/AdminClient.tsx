// /admin/client?id=… : the coach's view of one client (issue 14 point 4): profile and
// deactivation, credits with adjustments and the ledger, payments with receipts, sessions.
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import { CreditsSection } from "../admin/client/CreditsSection";
import { PaymentsSection, SessionsSection } from "../admin/client/HistorySection";
import { ProfileSection } from "../admin/client/ProfileSection";
import { LOAD_ERROR, LoadFailed, useAdminSession } from "../admin/guard";
import { sessionsPath } from "../admin/helpers";
import { ArrowLeftIcon } from "../admin/parts";
import type { BookingView, ClientDetailView } from "../api/types";
import { ApiError, api } from "../lib/api";
import { mountIsland } from "../lib/mount";
import { Spinner } from "../lib/ui";

function AdminClient() {
  const { session, failed } = useAdminSession();
  const [client, setClient] = useState<ClientDetailView | null>(null);
  const [sessions, setSessions] = useState<BookingView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const id = new URLSearchParams(window.location.search).get("id") ?? "";

  const load = useCallback(async () => {
    try {
      const [detail, list] = await Promise.all([
        api<ClientDetailView>(`/api/admin/clients/${encodeURIComponent(id)}`),
        api<BookingView[]>(sessionsPath({ clientId: id, date: "" })),
      ]);
      setClient(detail);
      setSessions(list);
    } catch (e) {
      console.error("client page", e);
      if (e instanceof ApiError && e.status === 404) setProblem("Client not found.");
      else {
        setProblem(LOAD_ERROR);
        toast.error("Error", { description: LOAD_ERROR });
      }
    }
  }, [id]);

  useEffect(() => {
    if (session) void load();
  }, [session, load]);

  if (failed) return <LoadFailed />;
  if (problem) return <LoadFailed text={problem} />;
  if (!session || !client) return <Spinner label="Loading the client…" />;
  return (
    <div className="admin-client">
      <p>
        <a className="btn btn--outline btn--sm" href="/admin#clients">
          <ArrowLeftIcon />
          Back to clients
        </a>
      </p>
      <h2 className="admin-client__name">{client.fullName}</h2>
      <ProfileSection client={client} onChange={setClient} />
      <CreditsSection client={client} onChange={setClient} />
      <PaymentsSection payments={client.payments} />
      <SessionsSection sessions={sessions} onChanged={() => void load()} />
    </div>
  );
}

export const mount = mountIsland(AdminClient);
