// /admin/add-payment: records a client's offline payment (POST /api/admin/payments); the
// sessions purchased are added to the client's credits (../admin/AddPaymentForm). Same admin
// guard as /admin.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { AddPaymentForm } from "../admin/AddPaymentForm";
import type { ClientRow } from "../api/types";
import { LoadFailed, useAdminSession } from "../admin/guard";
import { ArrowLeftIcon } from "../admin/parts";
import { GET } from "../lib/api";
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
        toast.error("Error Loading Clients", { description: "Failed to load clients." });
      });
    return () => {
      live = false;
    };
  }, [session]);

  if (failed) return <LoadFailed />;
  if (!session || clients === null) return <Spinner label="Loading clients…" />;

  return (
    <div className="admin admin-payment">
      <a className="link-arrow link-arrow--back admin-back" href="/admin">
        <ArrowLeftIcon />
        Back<span className="visually-hidden"> to the admin dashboard</span>
      </a>

      <section className="panel admin-panel admin-payment__panel" aria-labelledby="payment-title">
        <h2 className="panel__title" id="payment-title">
          Record a Payment
        </h2>
        <p className="admin-panel__lead">For bank transfers, cash and other payments made outside the site. The sessions purchased are added to the client's credits.</p>

        {clientsFailed ? (
          <div className="notice notice--error" role="alert">
            Failed to load clients. <button type="button" className="link-button" onClick={() => window.location.reload()}>Reload the page</button> to try again.
          </div>
        ) : null}
        <AddPaymentForm clients={clients} onClients={setClients} />
      </section>
    </div>
  );
}

export const mount = mountIsland(AddPayment);
