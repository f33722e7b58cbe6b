// /sponsor-report?token=… : how a sponsor's executives use the coaching it pays for (issue 23),
// from a link the coach shared, without an account: per executive the engagement, credits,
// used and remaining, and the days of past and upcoming sessions; Download CSV. A link that is
// not valid, expired or revoked says so in the API's words.
import { useEffect, useState } from "react";
import { Table, type Column } from "../admin/Table";
import { ApiError } from "../lib/api";
import { shortDate } from "../lib/format";
import { t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { Spinner } from "../lib/ui";
import { sponsorReport, sponsorReportCsv } from "../sponsors/api";
import { pageParams, reportDays } from "../sponsors/public";
import type { SponsorReportExecutive, SponsorReportView } from "../sponsors/types";

function Days({ days }: { days: string[] }) {
  const list = reportDays(days);
  if (list.length === 0) return <span className="admin-muted">{t("client.report.none")}</span>;
  return (
    <ul className="report__days">
      {list.map((d, i) => (
        <li key={`${d.day}-${i}`}>
          <time dateTime={d.day.slice(0, 10)}>{d.text}</time>
        </li>
      ))}
    </ul>
  );
}

const columns = (): Column<SponsorReportExecutive>[] => [
  {
    header: t("client.report.col.executive"),
    rowHeader: true,
    cell: (e) => <span dir="auto">{e.name}</span>,
  },
  { header: t("client.report.col.engagement"), cell: (e) => <span dir="auto">{e.engagement}</span> },
  { header: t("client.report.col.credits"), numeric: true, cell: (e) => e.credits },
  { header: t("client.report.col.used"), numeric: true, cell: (e) => e.used },
  { header: t("client.report.col.remaining"), numeric: true, cell: (e) => e.remaining },
  { header: t("client.report.col.past"), cell: (e) => <Days days={e.pastSessions} /> },
  { header: t("client.report.col.upcoming"), cell: (e) => <Days days={e.upcomingSessions} /> },
];

function SponsorReport() {
  const [{ token }] = useState(() => pageParams(window.location.search));
  const [report, setReport] = useState<SponsorReportView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!token) {
      setProblem(t("client.report.invalid"));
      return;
    }
    sponsorReport(token)
      .then(setReport)
      .catch((e: unknown) => {
        console.error("sponsor report", e);
        // The API says why (not valid, expired or revoked), in the page's language (lib/api).
        setProblem(e instanceof ApiError && e.status === 404 ? e.message || t("client.report.invalid") : t("client.report.loadFailed"));
      });
  }, [token]);

  if (problem) {
    return (
      <div className="panel client-error" role="alert">
        <p className="client-error__text">{problem}</p>
      </div>
    );
  }
  if (!report) return <Spinner label={t("client.report.loading")} />;
  return (
    <article className="panel admin-panel report" aria-labelledby="report-title">
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id="report-title">
            {t("client.report.title", { sponsor: report.sponsor })}
          </h2>
          <p className="admin-panel__lead">
            {t("client.report.lead", { generated: shortDate(report.generatedAt), expires: shortDate(report.expiresAt) })}
          </p>
        </div>
        <a className="btn btn--navy btn--sm" href={sponsorReportCsv(token)} download>
          {t("client.report.csv")}
        </a>
      </div>
      <Table
        labelledBy="report-title"
        className="report__table"
        columns={columns()}
        rows={report.executives}
        rowKey={(e) => `${e.name}|${e.engagement}`}
        empty={
          <div className="empty">
            <p className="empty__title">{t("client.report.empty")}</p>
          </div>
        }
      />
    </article>
  );
}

export const mount = mountIsland(SponsorReport, ["sponsorReport"]);
