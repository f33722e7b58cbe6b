// The providers' webhooks: the last one from each, how many failed in a row (three email the
// coach), and the recent ones that were not applied, with why.
import type { SystemView, WebhookRefusal, WebhookStatus } from "../../api/types";
import { t } from "../../lib/i18n";
import { type Column, Table } from "../Table";
import { Outcome, Section } from "./parts";
import { reason, when } from "./views";

export function WebhooksPanel({ view }: { view: SystemView }) {
  const providers: Column<WebhookStatus>[] = [
    { header: t("admin.system.col.provider"), rowHeader: true, cell: (w) => t(`admin.system.provider.${w.provider}`) },
    { header: t("admin.system.col.lastAt"), cell: (w) => when(w.lastAt) },
    {
      header: t("admin.system.col.result"),
      cell: (w) => (
        <>
          <Outcome outcome={w.lastOutcome} label={t(`admin.system.outcome.${w.lastOutcome as "applied" | "ignored" | "refused" | "failed"}`)} />
          {w.lastReason ? <span className="admin-muted system-reason">{reason(w.lastReason)}</span> : null}
        </>
      ),
    },
    {
      header: t("admin.system.col.failures"),
      numeric: true,
      cell: (w) => (
        <>
          {w.failuresInRow}
          {w.alertedAt ? <span className="admin-muted system-reason">{t("admin.system.alerted", { when: when(w.alertedAt) })}</span> : null}
        </>
      ),
    },
  ];
  const refusals: Column<WebhookRefusal>[] = [
    { header: t("admin.system.col.when"), className: "nowrap", cell: (r) => when(r.receivedAt) },
    { header: t("admin.system.col.provider"), cell: (r) => t(`admin.system.provider.${r.provider}`) },
    { header: t("admin.system.col.result"), cell: (r) => <Outcome outcome={r.outcome} label={t(`admin.system.outcome.${r.outcome as "ignored" | "refused" | "failed"}`)} /> },
    { header: t("admin.system.col.reason"), cell: (r) => reason(r.reason) },
    { header: t("admin.system.col.detail"), cell: (r) => (r.detail ? <bdi dir="ltr" className="ltr system-detail">{r.detail}</bdi> : "—") },
  ];
  return (
    <Section id="system-webhooks" title={t("admin.system.webhooks.title")} lead={t("admin.system.webhooks.lead")}>
      <Table
        label={t("admin.system.webhooks.label")}
        columns={providers}
        rows={view.webhooks}
        rowKey={(w) => w.provider}
        empty={<p className="admin-empty">{t("admin.system.webhooks.none")}</p>}
      />
      <h4 className="system-subtitle" id="system-refusals">
        {t("admin.system.refusals.title")}
      </h4>
      <Table
        labelledBy="system-refusals"
        columns={refusals}
        rows={view.refusals}
        rowKey={(r) => r.id}
        empty={<p className="admin-empty">{t("admin.system.refusals.none")}</p>}
      />
    </Section>
  );
}
