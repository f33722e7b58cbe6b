// The admin dashboard's Add Payment tab: the way to /admin/add-payment, and the accounting
// export (loaded with the dialogs, ./lazy).
import { Suspense } from "react";
import { localPath, t } from "../lib/i18n";
import { ExportPanel } from "./lazy";
import { PendingTransfers } from "./PendingTransfers";

export function PaymentsTab() {
  return (
    <>
      <section className="panel admin-panel admin-cta" aria-labelledby="payments-title">
        <h2 className="panel__title" id="payments-title">
          {t("admin.tabs.payments")}
        </h2>
        <p className="admin-panel__lead">{t("admin.payments.lead")}</p>
        <a className="btn btn--gold" href={localPath("/admin/add-payment")}>
          {t("admin.tabs.payments")}
        </a>
      </section>
      <PendingTransfers />
      <Suspense fallback={null}>
        <ExportPanel />
      </Suspense>
    </>
  );
}
