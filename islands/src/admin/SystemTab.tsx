// The admin dashboard's System tab (issue 24): whether the site runs on its own. The checks of
// `api doctor` with what to do about each failure; the providers' webhooks and those not
// applied, with why; the emails not sent, with Retry; the scheduled jobs' last runs; the
// catalogue the API loaded; and `ledger verify`. The dashboard loads this module (its parts in
// ./system and the system catalogue) when the tab is first shown.
import { useCallback, useEffect, useState } from "react";
import type { SystemView } from "../api/types";
import { GET } from "../lib/api";
import { t } from "../lib/i18n";
import { toast } from "../lib/toast";
import { Spinner } from "../lib/ui";
import { ChecksPanel } from "./system/ChecksPanel";
import { JobsPanel } from "./system/JobsPanel";
import { LedgerPanel } from "./system/LedgerPanel";
import { OutboxPanel } from "./system/OutboxPanel";
import { WebhooksPanel } from "./system/WebhooksPanel";

export function SystemTab() {
  const [view, setView] = useState<SystemView | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    setFailed(false);
    GET("/api/admin/system")
      .then(setView)
      .catch(() => {
        setFailed(true);
        toast.error(t("common.error.title"), { description: t("admin.system.loadFailed") });
      });
  }, []);
  useEffect(load, [load]);

  return (
    <div className="admin-stack system">
      <div className="panel admin-panel">
        <div className="admin-panel__head">
          <div>
            <h2 className="panel__title" id="system-title">
              {t("admin.tabs.system")}
            </h2>
            <p className="admin-panel__lead">{t("admin.system.lead")}</p>
          </div>
          <button type="button" className="btn btn--outline btn--sm" onClick={load}>
            {t("admin.system.refresh")}
          </button>
        </div>
        {failed ? (
          <div className="notice notice--error" role="alert">
            {t("admin.system.loadFailed")}{" "}
            <button type="button" className="link-button" onClick={load}>
              {t("common.tryAgain")}
            </button>
          </div>
        ) : null}
      </div>
      <ChecksPanel />
      {view ? (
        <>
          <WebhooksPanel view={view} />
          <OutboxPanel emails={view.outbox} canSend={view.canSendMail} onChanged={load} />
          <JobsPanel jobs={view.jobs} catalogue={view.catalogue} />
        </>
      ) : failed ? null : (
        <Spinner label={t("admin.tabs.systemLoading")} />
      )}
      <LedgerPanel />
    </div>
  );
}
