// Confirming a transfer arrived: how it came (InstaPay or bank transfer) and, optionally, the
// bank's reference; the server credits the client once and sends the receipt.
import { useId, useState } from "react";
import type { PendingTransferView } from "../api/types";
import { ApiError, POST } from "../lib/api";
import { formatMoney, sessions } from "../lib/format";
import { t } from "../lib/i18n";
import { toast } from "../lib/toast";
import { Modal } from "./dialog";

export function ConfirmTransferDialog(props: { transfer: PendingTransferView; onClose: () => void; onDone: () => void }) {
  const { transfer } = props;
  const id = useId();
  const [bankReference, setBankReference] = useState("");
  const [via, setVia] = useState<"instapay" | "bank_transfer">("instapay");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await POST("/api/admin/transfers/{order_id}/confirm", { bankReference: bankReference.trim() || null, via }, { path: { order_id: transfer.orderId } });
      toast.success(t("admin.transfers.confirmed"), { description: t("admin.transfers.confirmedText", { client: transfer.clientName }) });
      props.onDone();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : t("admin.transfers.failed");
      setError(message);
      toast.error(t("admin.transfers.failed"), { description: message });
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && props.onClose()}
      title={t("admin.transfers.confirmTitle", { reference: transfer.reference })}
      description={t("admin.transfers.confirmText", { amount: formatMoney(transfer.amount), client: transfer.clientName, sessions: sessions(transfer.sessions) })}
    >
      <form className="form admin-form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-via`}>
            {t("admin.transfers.via")}
          </label>
          <select className="input" id={`${id}-via`} value={via} onChange={(e) => setVia(e.target.value === "bank_transfer" ? "bank_transfer" : "instapay")}>
            <option value="instapay">{t("admin.transfers.via.instapay")}</option>
            <option value="bank_transfer">{t("admin.transfers.via.bank_transfer")}</option>
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-ref`}>
            {t("admin.transfers.bankReference")}
          </label>
          <input className="input" id={`${id}-ref`} value={bankReference} maxLength={100} autoComplete="off" onChange={(e) => setBankReference(e.target.value)} />
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {t("admin.transfers.confirm")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
