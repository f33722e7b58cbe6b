// `api ledger verify` from the page: every account recomputed from the credit ledger, every lot
// from its moves, every engagement from its lots; what differs is named.
import { useState } from "react";
import type { LedgerReport } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { t } from "../../lib/i18n";
import { rich } from "../../lib/rich";
import { toast } from "../../lib/toast";
import { Section } from "./parts";

export function LedgerPanel() {
  const [report, setReport] = useState<LedgerReport | null>(null);
  const [busy, setBusy] = useState(false);

  async function verify() {
    setBusy(true);
    try {
      setReport(await POST("/api/admin/system/ledger-verify", {}));
    } catch (err) {
      toast.error(t("admin.system.ledger.failed"), { description: err instanceof ApiError ? err.message : undefined });
    } finally {
      setBusy(false);
    }
  }

  const differences = report ? report.accounts.length + report.lots.length + report.engagements.length : 0;
  const button = (
    <button type="button" className="btn btn--navy btn--sm" onClick={() => void verify()} disabled={busy} aria-busy={busy}>
      {busy ? t("admin.system.ledger.verifying") : t("admin.system.ledger.verify")}
    </button>
  );
  return (
    <Section id="system-ledger" title={t("admin.system.ledger.title")} lead={rich("admin.system.ledger.lead", { code: (c) => <code dir="ltr">{c}</code> })} action={button}>
      <div role="status">
        {report?.ok ? <p className="notice">{t("admin.system.ledger.ok", { count: report.accountsChecked })}</p> : null}
        {report && !report.ok ? (
          <div className="notice notice--error">
            <p>{t("admin.system.ledger.differs", { count: differences })}</p>
            <ul>
              {report.accounts.map((a) => (
                <li key={a.userId}>
                  {t("admin.system.ledger.account", {
                    name: a.clientName ?? a.userId,
                    total: a.totalCredits,
                    used: a.usedCredits,
                    available: a.availableCredits,
                    ledgerTotal: a.ledgerTotal,
                    ledgerUsed: a.ledgerUsed,
                    lots: a.lotsRemaining,
                  })}
                </li>
              ))}
              {report.lots.map((l) => (
                <li key={l.lotId}>{t("admin.system.ledger.lot", { lot: l.lotId, remaining: l.remaining, moved: l.moved })}</li>
              ))}
              {report.engagements.map((e) => (
                <li key={e.engagementId}>{t("admin.system.ledger.engagement", { engagement: e.engagementId, members: e.membersGranted, lots: e.lotsGranted })}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </Section>
  );
}
