// The client page's last section: whether the client can sign in, and the one button that
// changes it (deactivate or reactivate, after a confirm prompt), apart from the profile so the
// destructive button never sits beside Save.
import { Suspense, useId, useState } from "react";
import { toast } from "sonner";
import type { ClientDetailView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { DialogButton } from "../parts";
import { ConfirmDialog, preloadClientDialogs } from "./lazy";

export function AccessBadge({ client }: { client: ClientDetailView }) {
  return client.deactivatedAt ? (
    <span className="status-badge status-badge--danger">Deactivated {shortDate(client.deactivatedAt)}</span>
  ) : (
    <span className="status-badge status-badge--success">Active</span>
  );
}

/** Whether the client can sign in, and the one button that changes it, apart from the profile. */
export function AccountSection({ client, onChange }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [switching, setSwitching] = useState(false);
  const active = !client.deactivatedAt;
  const switchActive = async () => {
    setSwitching(true);
    try {
      onChange(await POST(active ? "/api/admin/clients/{id}/deactivate" : "/api/admin/clients/{id}/reactivate", {}, { path: { id: client.userId } }));
      toast.success(active ? "Account deactivated" : "Account reactivated", {
        description: active ? "They are signed out everywhere and cannot sign in. Their history stays." : "They can sign in again.",
      });
      setConfirming(false);
    } catch (e) {
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Please try again." });
    } finally {
      setSwitching(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`} style={{ borderColor: active ? undefined : "var(--danger)" }}>
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id={`${id}-title`}>
            Account
          </h2>
          <p className="admin-panel__lead">
            {active
              ? "Deactivating signs the client out everywhere and stops them signing in. Their credits, payments and sessions stay."
              : "The client cannot sign in. Reactivating lets them sign in again, with their credits, payments and sessions as they were."}
          </p>
        </div>
        <AccessBadge client={client} />
      </div>
      <DialogButton className={active ? "btn btn--sm admin-btn--danger-outline" : "btn btn--sm btn--outline"} preload={preloadClientDialogs} onOpen={() => setConfirming(true)}>
        {active ? "Deactivate account" : "Reactivate account"}
      </DialogButton>
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={active ? "Deactivate this account?" : "Reactivate this account?"}
            description={
              active
                ? `${client.fullName} will be signed out everywhere and cannot sign in until you reactivate the account. Their credits, payments and sessions stay.`
                : `${client.fullName} will be able to sign in again.`
            }
            confirmText={active ? "Deactivate" : "Reactivate"}
            cancelText="Keep as is"
            busy={switching}
            onConfirm={() => void switchActive()}
            onClose={() => setConfirming(false)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
