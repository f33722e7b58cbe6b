// The admin dashboard's five stat cards (spec §2).
import type { AdminStats } from "../api/types";
import { formatMoney } from "../lib/format";
import { t } from "../lib/i18n";

export function StatCards({ stats }: { stats: AdminStats }) {
  // [label, value, a note under the label saying what the number counts]
  const cards: [string, string, string?][] = [
    [t("admin.stats.clients"), String(stats.totalClients)],
    [t("admin.stats.credits"), String(stats.totalCredits)],
    [t("admin.stats.upcoming"), String(stats.upcomingSessions)],
    [t("admin.stats.completed"), String(stats.completedSessions)],
    [t("admin.stats.revenue"), formatMoney(stats.revenueThisMonth, { cents: true }), t("admin.stats.revenueNote")],
  ];
  return (
    <section aria-labelledby="overview-title">
      <h2 className="visually-hidden" id="overview-title">
        {t("admin.stats.title")}
      </h2>
      <dl className="stat-grid admin-stats">
        {cards.map(([name, value, note]) => (
          <div className="stat admin-stat" key={name}>
            <dt className="stat__label">
              {name}
              {note ? <span className="admin-stat__note"> ({note})</span> : null}
            </dt>
            <dd className="stat__value">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
