// The client page's credits: the totals, the credits by lot with their last day (Extend), an
// adjustment with a reason, and the ledger.
import { useId, useState } from "react";
import { toast } from "sonner";
import type { ClientDetailView, LotView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { COMPACT_CELL, useNarrow } from "../../lib/narrow";
import { CompactTable } from "../CompactTable";
import { Field } from "../../lib/ui";
import { checkAdjust, ledgerKind, signed } from "../client-page";
import { useForm } from "../form";
import { fieldErrors } from "../helpers";
import { LotsSection } from "./LotsSection";

export interface LotsState {
  lots: LotView[] | null;
  failed: string | null;
  reload: () => void;
  onExtended: (lot: LotView) => void;
}

export function CreditsSection({ client, onChange, lots }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void; lots: LotsState }) {
  const id = useId();
  const narrow = useNarrow();
  const form = useForm(() => ({ delta: "", reason: "" }));
  const [busy, setBusy] = useState(false);
  const a = client.account;

  const adjust = async () => {
    const checked = checkAdjust(form.values);
    if (!checked.ok) return form.setErrors(checked.errors);
    setBusy(true);
    try {
      onChange(await POST("/api/admin/clients/{id}/credits", checked.payload, { path: { id: client.userId } }));
      // Added credits are a lot of their own; removed ones leave the lots that expire first.
      lots.reload();
      toast.success("Credits adjusted", { description: `${signed(checked.payload.delta)} credits: ${checked.payload.reason}` });
      form.reset();
    } catch (e) {
      if (e instanceof ApiError) form.setErrors(fieldErrors(e.fields, ["delta", "reason"] as const));
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Failed to adjust credits." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Credits
      </h2>
      <dl className="stat-grid admin-stats">
        {(
          [
            ["Available", a.availableCredits],
            ["Total", a.totalCredits],
            ["Used", a.usedCredits],
            ["Completed sessions", a.sessionsCompleted],
          ] as const
        ).map(([k, v]) => (
          <div className="stat admin-stat" key={k}>
            <dt className="stat__label">{k}</dt>
            <dd className="stat__value">{v}</dd>
          </div>
        ))}
      </dl>
      <LotsSection lots={lots.lots} failed={lots.failed} onRetry={lots.reload} onExtended={lots.onExtended} />
      <form
        className="admin-form admin-client__adjust"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void adjust();
        }}
      >
        <h3 className="admin-client__subtitle">Adjust credits</h3>
        <Field id={`${id}-delta`} label="Credits (+ to add, − to remove)" error={form.errors.delta}>
          <input className="input" inputMode="numeric" autoComplete="off" {...form.bind("delta", `${id}-delta`)} />
        </Field>
        <Field id={`${id}-reason`} label="Reason" error={form.errors.reason} hint="Kept in the ledger.">
          <input className="input" autoComplete="off" maxLength={500} {...form.bind("reason", `${id}-reason`)} />
        </Field>
        <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
          {busy ? "Adjusting..." : "Adjust credits"}
        </button>
      </form>
      <h3 className="admin-client__subtitle">Ledger</h3>
      {client.ledger.length === 0 ? (
        <p className="admin-muted">No credit changes yet.</p>
      ) : narrow ? (
        <CompactTable label="Credit ledger" columns={[{ name: "Change" }, { name: "Credits", numeric: true }, { name: "Used", numeric: true }]}>
          {client.ledger.map((l) => (
            <tr key={l.id}>
              <td style={COMPACT_CELL}>
                {ledgerKind(l.kind)}
                <span className="admin-table__sub">
                  {shortDate(l.createdAt)}
                  {l.note ? ` · ${l.note}` : ""}
                </span>
              </td>
              <td className="num" style={{ ...COMPACT_CELL, textAlign: "right" }}>
                {signed(l.deltaTotal)}
              </td>
              <td className="num" style={{ ...COMPACT_CELL, textAlign: "right" }}>
                {signed(l.deltaUsed)}
              </td>
            </tr>
          ))}
        </CompactTable>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Credit ledger">
          <table className="data-table admin-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Change</th>
                <th scope="col" className="num">
                  Credits
                </th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {client.ledger.map((l) => (
                <tr key={l.id}>
                  <td className="nowrap">{shortDate(l.createdAt)}</td>
                  <td>{ledgerKind(l.kind)}</td>
                  <td className="num">{signed(l.deltaTotal)}</td>
                  <td className="num">{signed(l.deltaUsed)}</td>
                  <td>{l.note ?? <span className="admin-muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
