// The client page's last section: whether the client can sign in, and the one button that
// changes it (deactivate or reactivate, after a confirm prompt), apart from the profile so the
// destructive button never sits beside Save.
import { Suspense, useId, useState } from "react";
import { toast } from "../../lib/toast";
import type { ClientDetailView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { DialogButton } from "../parts";
import { ConfirmDialog, preloadClientDialogs } from "./lazy";

export function AccessBadge({ client }: { client: ClientDetailView }) {
  return client.deactivatedAt ? (
    <span className="status-badge status-badge--danger">{t("adminClient.access.deactivatedOn", { date: shortDate(client.deactivatedAt) })}</span>
  ) : (
    <span className="status-badge status-badge--success">{t("adminClient.active")}</span>
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
      toast.success(active ? t("adminClient.access.deactivated") : t("adminClient.access.reactivated"), {
        description: active ? t("adminClient.access.deactivatedText") : t("adminClient.access.reactivatedText"),
      });
      setConfirming(false);
    } catch (e) {
      toast.error(t("common.error.title"), { description: e instanceof ApiError ? e.message : t("common.error.retry") });
    } finally {
      setSwitching(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`} style={{ borderColor: active ? undefined : "var(--danger)" }}>
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id={`${id}-title`}>
            {t("adminClient.access.title")}
          </h2>
          <p className="admin-panel__lead">{active ? t("adminClient.access.leadActive") : t("adminClient.access.leadInactive")}</p>
        </div>
        <AccessBadge client={client} />
      </div>
      <DialogButton className={active ? "btn btn--sm admin-btn--danger-outline" : "btn btn--sm btn--outline"} preload={preloadClientDialogs} onOpen={() => setConfirming(true)}>
        {active ? t("adminClient.access.deactivate") : t("adminClient.access.reactivate")}
      </DialogButton>
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={active ? t("adminClient.access.deactivateTitle") : t("adminClient.access.reactivateTitle")}
            description={
              active ? t("adminClient.access.deactivateText", { name: client.fullName }) : t("adminClient.access.reactivateText", { name: client.fullName })
            }
            confirmText={active ? t("adminClient.access.deactivateConfirm") : t("adminClient.access.reactivateConfirm")}
            cancelText={t("adminClient.access.keep")}
            busy={switching}
            onConfirm={() => void switchActive()}
            onClose={() => setConfirming(false)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
