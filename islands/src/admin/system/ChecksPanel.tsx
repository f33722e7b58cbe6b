// The checks of `api doctor`, run by the API on request (and once when the tab opens): each
// setting against the real service, its finding in the admin's language and, when it failed,
// what to do. The values a finding names (an address, a server's own words) are isolated, so a
// path or an English error keeps its order inside an Arabic sentence. A finding this build has
// no words for shows the API's English.
import { type ReactNode, useCallback, useEffect, useState } from "react";
import type { CheckResult, DoctorReport } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { type MessageKey, has, t } from "../../lib/i18n";
import { rich } from "../../lib/rich";
import { toast } from "../../lib/toast";
import { Outcome, Section } from "./parts";

const isolated = (values: Record<string, string>): Record<string, ReactNode> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, <bdi key={k}>{v}</bdi>]));

function finding(c: CheckResult): ReactNode {
  const key = `admin.system.check.${c.code}` satisfies MessageKey;
  return has(key) ? rich(key, isolated(c.values)) : c.message;
}

function fix(c: CheckResult): ReactNode {
  if (!c.fix) return null;
  const key = `admin.system.fix.${c.code}`;
  return has(key) ? rich(key, isolated(c.values)) : c.fix;
}

const code = (chunks: ReactNode[]) => <code dir="ltr">{chunks}</code>;

export function ChecksPanel() {
  const [report, setReport] = useState<DoctorReport | null>(null);
  const [running, setRunning] = useState(false);

  const run = useCallback(() => {
    setRunning(true);
    POST("/api/admin/system/doctor", {})
      .then(setReport)
      .catch((err: unknown) => toast.error(t("admin.system.checks.runFailed"), { description: err instanceof ApiError ? err.message : undefined }))
      .finally(() => setRunning(false));
  }, []);
  useEffect(run, [run]);

  const button = (
    <button type="button" className="btn btn--outline btn--sm" onClick={run} disabled={running} aria-busy={running}>
      {running ? t("admin.system.checks.running") : t("admin.system.checks.run")}
    </button>
  );
  return (
    <Section id="system-checks" title={t("admin.system.checks.title")} lead={rich("admin.system.checks.lead", { code })} action={button}>
      <p className={report && report.failed > 0 ? "notice notice--error" : "visually-hidden"} role="status">
        {report ? t("admin.system.checks.summary", { failed: report.failed }) : running ? t("admin.system.checks.running") : ""}
      </p>
      {report ? (
        <ul className="system-checks" aria-busy={running}>
          {report.checks.map((c) => {
            const todo = c.status === "failed" ? fix(c) : null;
            return (
              <li key={c.check} className={`system-check system-check--${c.status}`}>
                <span className="system-check__name">{t(`admin.system.checkName.${c.check}`)}</span>
                <Outcome outcome={c.status} label={t(`admin.system.status.${c.status}`)} />
                <p className="system-check__finding">{finding(c)}</p>
                {todo ? (
                  <p className="system-check__fix">
                    <strong>{t("admin.system.checks.fix")}</strong> {todo}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </Section>
  );
}
