// The dashboard's transfer orders still waiting for their money (issue 22): what to send,
// where, and the reference; the client may cancel an order. Nothing shows when none waits.
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../admin/dialog";
import type { TransferView } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { sessions } from "../lib/format";
import { t } from "../lib/i18n";
import { toast } from "../lib/toast";
import { TransferDetails } from "../purchase/TransferDetails";

export function PendingTransfers() {
  const [orders, setOrders] = useState<TransferView[]>([]);
  const [asking, setAsking] = useState<TransferView | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    GET("/api/payments/transfers")
      .then(setOrders)
      // The rest of the dashboard works without this list; it is simply not shown.
      .catch(() => setOrders([]));
  }, []);
  useEffect(load, [load]);

  async function cancel(order: TransferView) {
    setBusy(true);
    try {
      await POST("/api/payments/transfer/{order_id}/cancel", {}, { path: { order_id: order.orderId } });
      toast.success(t("client.transfers.cancelled"));
    } catch (err) {
      toast.error(t("client.transfers.cancelFailed"), { description: err instanceof ApiError ? err.message : undefined });
    } finally {
      setBusy(false);
      setAsking(null);
      load();
    }
  }

  if (orders.length === 0) return null;
  return (
    <section className="panel client-card client-card--wide client-transfers" aria-labelledby="client-transfers-title">
      <h2 className="panel__title" id="client-transfers-title">
        {t("client.transfers.title")}
      </h2>
      <ul className="client-transfers__list">
        {orders.map((order) => (
          <li key={order.orderId} className="client-transfers__item">
            <p className="client-transfers__what">{t("client.transfers.item", { package: order.packageName, sessions: sessions(order.sessions) })}</p>
            <TransferDetails transfer={order} />
            <button type="button" className="btn btn--outline btn--sm" onClick={() => setAsking(order)}>
              {t("client.transfers.cancel")}
            </button>
          </li>
        ))}
      </ul>
      {asking ? (
        <ConfirmDialog
          open
          title={t("client.transfers.cancelTitle")}
          description={t("client.transfers.cancelText", { reference: asking.reference })}
          confirmText={t("client.transfers.cancel")}
          cancelText={t("client.transfers.keep")}
          busy={busy}
          onConfirm={() => void cancel(asking)}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </section>
  );
}
