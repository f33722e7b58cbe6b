// /admin/add-payment: records a client's offline payment (POST /api/admin/payments); the
// sessions purchased are added to the client's credits (../admin/AddPaymentForm). Same admin
// guard as /admin.
import { useEffect, useState } from "react";
import { toast } from "../lib/toast";
import { AddPaymentForm } from "../admin/AddPaymentForm";
import type { ClientRow } from "../api/types";
import { LoadFailed, useAdminSession } from "../admin/guard";
import { ArrowLeftIcon } from "../admin/parts";
import { GET } from "../lib/api";
import { localPath, t } from "../lib/i18n";
import { rich } from "../lib/rich";
import { mountIsland } from "../lib/mount";
import { Spinner } from "../lib/ui";

function AddPayment() {
  const { session, failed } = useAdminSession();
  const [clients, setClients] = useState<ClientRow[] | null>(null);
  const [clientsFailed, setClientsFailed] = useState(false);

  useEffect(() => {
    if (!session) return;
    let live = true;
    GET("/api/admin/clients")
      .then((c) => live && setClients(c))
      .catch(() => {
        if (!live) return;
        setClients([]);
        setClientsFailed(true);
        toast.error(t("admin.clients.loadError"), { description: t("admin.clients.loadFailed") });
      });
    return () => {
      live = false;
    };
  }, [session]);

  if (failed) return <LoadFailed />;
  if (!session || clients === null) return <Spinner label={t("admin.clients.loading")} />;

  return (
    <div className="admin admin-payment">
      <a className="link-arrow link-arrow--back admin-back" href={localPath("/admin")}>
        <ArrowLeftIcon />
        {t("common.back")}
        <span className="visually-hidden">{t("admin.pay.backHidden")}</span>
      </a>

      <section className="panel admin-panel admin-payment__panel" aria-labelledby="payment-title">
        <h2 className="panel__title" id="payment-title">
          {t("admin.pay.title")}
        </h2>
        <p className="admin-panel__lead">{t("admin.pay.lead")}</p>

        {clientsFailed ? (
          <div className="notice notice--error" role="alert">
            {rich("admin.pay.clientsFailed", {
              button: (c) => (
                <button type="button" className="link-button" onClick={() => window.location.reload()}>
                  {c}
                </button>
              ),
            })}
          </div>
        ) : null}
        <AddPaymentForm clients={clients} onClients={setClients} />
      </section>
    </div>
  );
}

export const mount = mountIsland(AddPayment, ["admin", "addPayment"]);
