// The scheduled jobs' last runs (the expiry sweep, the reminders, reconciliation…) and the
// catalogue the API loaded from the site.
import type { CatalogueStatus, JobRun } from "../../api/types";
import { t } from "../../lib/i18n";
import { rich } from "../../lib/rich";
import { type Column, Table } from "../Table";
import { Outcome, Section } from "./parts";
import { jobDid, jobName, when } from "./views";

export function JobsPanel({ jobs, catalogue }: { jobs: JobRun[]; catalogue: CatalogueStatus }) {
  const columns: Column<JobRun>[] = [
    { header: t("admin.system.col.job"), rowHeader: true, cell: (j) => jobName(j.job) },
    { header: t("admin.system.col.lastRun"), className: "nowrap", cell: (j) => when(j.finishedAt) },
    {
      header: t("admin.system.col.result"),
      cell: (j) => <Outcome outcome={j.outcome} label={t(j.outcome === "ok" ? "admin.system.job.ok" : "admin.system.job.failed")} />,
    },
    { header: t("admin.system.col.did"), cell: (j) => (j.error ? <bdi dir="ltr" className="ltr system-detail">{j.error}</bdi> : jobDid(j) || null) },
    { header: t("admin.system.col.lastOk"), className: "nowrap", cell: (j) => (j.lastOkAt ? when(j.lastOkAt) : t("admin.system.never")) },
  ];
  return (
    <>
      <Section id="system-jobs" title={t("admin.system.jobs.title")} lead={t("admin.system.jobs.lead")}>
        <Table labelledBy="system-jobs" columns={columns} rows={jobs} rowKey={(j) => j.job} empty={<p className="admin-empty">{t("admin.system.jobs.none")}</p>} />
      </Section>
      <Section id="system-catalogue" title={t("admin.system.catalogue.title")}>
        {catalogue.version && catalogue.loadedAt ? (
          <>
            <p>{rich("admin.system.catalogue.loaded", { version: <bdi>{catalogue.version}</bdi>, when: when(catalogue.loadedAt) })}</p>
            {catalogue.source ? <p className="admin-muted">{rich("admin.system.catalogue.source", { source: <bdi>{catalogue.source}</bdi> })}</p> : null}
          </>
        ) : (
          <p className="admin-empty">{t("admin.system.catalogue.none")}</p>
        )}
        {catalogue.failedAt ? (
          <p className="notice notice--error">{rich("admin.system.catalogue.failed", { when: when(catalogue.failedAt), error: <bdi>{catalogue.error ?? ""}</bdi> })}</p>
        ) : null}
      </Section>
    </>
  );
}
