// Pending transfers (issue 22): InstaPay and bank transfer orders waiting for the coach to see
// the money arrive, with Confirm (credits, receipt and its email) and Reject. Their dialogs
// load with the others (./lazy).
import { Suspense, useCallback, useEffect, useState } from "react";
import type { PendingTransferView } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { formatMoney, longDateTime, sessions } from "../lib/format";
import { t } from "../lib/i18n";
import { toast } from "../lib/toast";
import { ConfirmDialog, ConfirmTransferDialog } from "./lazy";
import { type Column, Table } from "./Table";

type Asking = { transfer: PendingTransferView; what: "confirm" | "reject" };

export function PendingTransfers() {
  const [rows, setRows] = useState<PendingTransferView[] | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    GET("/api/admin/transfers")
      .then(setRows)
      .catch((err: unknown) => {
        setRows([]);
        toast.error(t("admin.transfers.loadFailed"), { description: err instanceof ApiError ? err.message : undefined });
      });
  }, []);
  useEffect(load, [load]);

  async function reject(transfer: PendingTransferView) {
    setBusy(true);
    try {
      await POST("/api/admin/transfers/{order_id}/reject", {}, { path: { order_id: transfer.orderId } });
      toast.success(t("admin.transfers.rejected"));
    } catch (err) {
      toast.error(t("admin.transfers.failed"), { description: err instanceof ApiError ? err.message : undefined });
    } finally {
      setBusy(false);
      setAsking(null);
      load();
    }
  }

  const actions = (r: PendingTransferView) => (
    <span className="admin-actions">
      <button type="button" className="btn btn--navy btn--sm" onClick={() => setAsking({ transfer: r, what: "confirm" })}>
        {t("admin.transfers.confirm")}
        <span className="visually-hidden"> {r.reference}</span>
      </button>
      <button type="button" className="btn btn--outline btn--sm" onClick={() => setAsking({ transfer: r, what: "reject" })}>
        {t("admin.transfers.reject")}
        <span className="visually-hidden"> {r.reference}</span>
      </button>
    </span>
  );
  const columns: Column<PendingTransferView>[] = [
    { header: t("admin.transfers.col.reference"), rowHeader: true, cell: (r) => <bdi dir="ltr" className="ltr">{r.reference}</bdi> },
    { header: t("admin.transfers.col.client"), cell: (r) => <>{r.clientName}<br /><span className="admin-muted">{r.clientEmail}</span></> },
    { header: t("admin.transfers.col.package"), cell: (r) => <>{r.packageName}<br /><span className="admin-muted">{sessions(r.sessions)}</span></> },
    { header: t("admin.transfers.col.amount"), numeric: true, className: "nowrap", cell: (r) => formatMoney(r.amount) },
    { header: t("admin.transfers.col.until"), cell: (r) => longDateTime(r.expiresAt) },
    { header: t("admin.col.actions"), hiddenHeader: true, className: "admin-table__actions", cell: actions },
  ];

  return (
    <section className="panel admin-panel" aria-labelledby="transfers-title">
      <h2 className="panel__title" id="transfers-title">
        {t("admin.transfers.title")}
      </h2>
      <p className="admin-panel__lead">{t("admin.transfers.lead")}</p>
      <Table labelledBy="transfers-title" columns={columns} rows={rows} rowKey={(r) => r.orderId} empty={<p className="admin-empty">{t("admin.transfers.empty")}</p>} />
      <Suspense fallback={null}>
        {asking?.what === "confirm" ? (
          <ConfirmTransferDialog transfer={asking.transfer} onClose={() => setAsking(null)} onDone={() => { setAsking(null); load(); }} />
        ) : null}
        {asking?.what === "reject" ? (
          <ConfirmDialog
            open
            title={t("admin.transfers.rejectTitle", { reference: asking.transfer.reference })}
            description={t("admin.transfers.rejectText")}
            confirmText={t("admin.transfers.reject")}
            cancelText={t("admin.transfers.keep")}
            busy={busy}
            onConfirm={() => void reject(asking.transfer)}
            onClose={() => setAsking(null)}
          />
        ) : null}
      </Suspense>
    </section>
  );
}
