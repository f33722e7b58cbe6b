// The emails not sent: waiting in the outbox for their next try, or given up on, each with the
// mail server's last answer and a Retry that sends it now (through the same mail server).
import { useState } from "react";
import type { WaitingEmail } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { type Column, Table } from "../Table";
import { Outcome, Section } from "./parts";
import { when } from "./views";

export function OutboxPanel({ emails, canSend, onChanged }: { emails: WaitingEmail[]; canSend: boolean; onChanged: () => void }) {
  const [sending, setSending] = useState<string | null>(null);

  async function retry(e: WaitingEmail) {
    setSending(e.id);
    try {
      const answer = await POST("/api/admin/system/outbox/{id}/retry", {}, { path: { id: e.id } });
      if (answer.status === "sent") toast.success(t("admin.system.outbox.sent", { to: e.toAddress }));
      else toast.error(t("admin.system.outbox.refusedAgain"), { description: answer.error ?? undefined });
    } catch (err) {
      toast.error(t("admin.system.outbox.retryFailed"), { description: err instanceof ApiError ? err.message : undefined });
    } finally {
      setSending(null);
      onChanged();
    }
  }

  const columns: Column<WaitingEmail>[] = [
    { header: t("admin.system.col.queued"), className: "nowrap", cell: (e) => when(e.createdAt) },
    { header: t("admin.system.col.to"), rowHeader: true, cell: (e) => <bdi dir="ltr" className="ltr">{e.toAddress}</bdi> },
    { header: t("admin.system.col.subject"), cell: (e) => <bdi>{e.subject}</bdi> },
    {
      header: t("admin.system.col.status"),
     
      cell: (e) => (
        <>
          <Outcome outcome={e.status === "failed" ? "failed" : "waiting"} label={t(`admin.system.outbox.status.${e.status as "pending" | "failed"}`)} />
          {e.status === "pending" ? <span className="admin-muted system-reason">{t("admin.system.outbox.nextTry", { when: when(e.nextAttemptAt) })}</span> : null}
        </>
      ),
    },
    { header: t("admin.system.col.tries"), numeric: true, cell: (e) => e.attempts },
    { header: t("admin.system.col.answer"), cell: (e) => (e.lastError ? <bdi dir="ltr" className="ltr system-detail">{e.lastError}</bdi> : "—") },
    {
      header: t("admin.system.col.actions"),
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (e) =>
        canSend ? (
          <button type="button" className="btn btn--navy btn--sm" onClick={() => void retry(e)} disabled={sending !== null} aria-busy={sending === e.id}>
            {t("admin.system.outbox.retry")}
            <span className="visually-hidden"> {t("admin.system.outbox.retryFor", { to: e.toAddress })}</span>
          </button>
        ) : null,
    },
  ];
  return (
    <Section id="system-outbox" title={t("admin.system.outbox.title")} lead={t("admin.system.outbox.lead")}>
      {!canSend ? <p className="notice">{t("admin.system.outbox.noServer")}</p> : null}
      <Table labelledBy="system-outbox" columns={columns} rows={emails} rowKey={(e) => e.id} empty={<p className="admin-empty">{t("admin.system.outbox.none")}</p>} />
    </Section>
  );
}
