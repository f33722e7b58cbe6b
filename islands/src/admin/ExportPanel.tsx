// The accounting export (issue 14 point 6): payments for a date range as a CSV download.
import { useId, useState } from "react";
import { Field } from "../lib/ui";
import { today } from "./helpers";

/** The first day of the current month, YYYY-MM-DD. */
function monthStart(day: string): string {
  return `${day.slice(0, 8)}01`;
}

export function exportPath(from: string, to: string): string {
  return `/api/admin/exports/payments?${new URLSearchParams({ from, to }).toString()}`;
}

export function ExportPanel() {
  const id = useId();
  const [to, setTo] = useState(today);
  const [from, setFrom] = useState(() => monthStart(today()));
  const problem = !from || !to ? "Choose both dates" : to < from ? "The last day must be on or after the first day" : null;
  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Accounting export
      </h2>
      <p className="admin-panel__lead">Payments for a date range as CSV: one row per payment, amounts in EGP with two decimals.</p>
      <div className="admin-toolbar">
        <Field id={`${id}-from`} label="From">
          <input className="input" type="date" id={`${id}-from`} value={from} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field id={`${id}-to`} label="To" error={problem ?? undefined}>
          <input className="input" type="date" id={`${id}-to`} value={to} onChange={(e) => setTo(e.target.value)} aria-invalid={problem ? true : undefined} />
        </Field>
        {problem ? (
          <button type="button" className="btn btn--navy btn--sm" disabled>
            Download CSV
          </button>
        ) : (
          <a className="btn btn--navy btn--sm" href={exportPath(from, to)} download={`payments-${from}-to-${to}.csv`}>
            Download CSV
          </a>
        )}
      </div>
    </section>
  );
}
