// Booking Management: the external scheduling page, how its bookings reach the site, and the
// 10 most recent bookings.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { api } from "../lib/api";
import { longDateTime, shortDate } from "../lib/format";
import type { BookingView, SchedulerInfo } from "../api/types";
import { LOAD_ERROR } from "./guard";
import { label } from "./helpers";
import { AdminBadge, ExternalIcon } from "./parts";

export function BookingsTab({ scheduler, refreshKey }: { scheduler: SchedulerInfo | null; refreshKey: number }) {
  const [rows, setRows] = useState<BookingView[] | null>(null);

  useEffect(() => {
    let live = true;
    api<BookingView[]>("/api/admin/bookings/recent")
      .then((r) => live && setRows(r))
      .catch(() => {
        if (!live) return;
        setRows([]);
        toast.error("Error", { description: LOAD_ERROR });
      });
    return () => {
      live = false;
    };
  }, [refreshKey]);

  const name = scheduler?.schedulerName || "the scheduling page";
  return (
    <div className="admin-stack">
      <section className="panel admin-panel" aria-labelledby="scheduler-title">
        <h2 className="panel__title" id="scheduler-title">
          Booking Management
        </h2>
        <p className="admin-panel__lead">
          Clients book their sessions on {name}. Each booking made there arrives through the scheduling webhook, shows up below and debits one credit from
          the client automatically; cancelling it there gives the credit back.
        </p>
        {scheduler?.schedulerUrl ? (
          <a className="btn btn--gold btn--sm" href={scheduler.schedulerUrl} target="_blank" rel="noopener noreferrer">
            Open {scheduler.schedulerName || "scheduling page"}
            <ExternalIcon />
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
      </section>

      <section className="panel admin-panel" aria-labelledby="recent-title">
        <h3 className="panel__title" id="recent-title">
          Recent Bookings
        </h3>
        {rows === null ? (
          <p className="admin-muted" role="status">
            Loading bookings…
          </p>
        ) : rows.length === 0 ? (
          <div className="empty">
            <p className="empty__title">No recent bookings found</p>
            <p>New bookings from {name} and phone bookings appear here.</p>
          </div>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Recent bookings table">
            <table className="data-table admin-table">
              <caption className="visually-hidden">The 10 most recent bookings</caption>
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Session</th>
                  <th scope="col">Status</th>
                  <th scope="col">Source</th>
                  <th scope="col">Booked</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((b) => (
                  <tr key={b.id}>
                    <th scope="row" className="admin-table__name">
                      {b.clientName || "Unknown client"}
                      {b.clientEmail ? <span className="admin-table__sub">{b.clientEmail}</span> : null}
                    </th>
                    <td>
                      {longDateTime(b.sessionDate)}
                      {b.sessionNotes ? <span className="admin-table__sub">{b.sessionNotes}</span> : null}
                    </td>
                    <td>
                      <AdminBadge status={b.status} />
                    </td>
                    <td>{label(b.source)}</td>
                    <td className="nowrap">{shortDate(b.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
