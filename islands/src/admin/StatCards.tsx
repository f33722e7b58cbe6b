// The admin dashboard's five stat cards (spec §2).
import type { AdminStats } from "../api/types";
import { formatMoney } from "../lib/format";

export function StatCards({ stats }: { stats: AdminStats }) {
  // [label, value, a note under the label saying what the number counts]
  const cards: [string, string, string?][] = [
    ["Total Clients", String(stats.totalClients)],
    ["Credits Sold", String(stats.totalCredits)],
    ["Upcoming Sessions", String(stats.upcomingSessions)],
    ["Completed Sessions", String(stats.completedSessions)],
    ["Revenue This Month", formatMoney(stats.revenueThisMonth, { cents: true }), "net of refunds"],
  ];
  return (
    <section aria-labelledby="overview-title">
      <h2 className="visually-hidden" id="overview-title">
        Overview
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
