// The client page's credits: the totals, the credits by lot with their last day (Extend), an
// adjustment with a reason, and the ledger.
import { useId } from "react";
import { toast } from "sonner";
import type { AdjustCreditsBody, ClientDetailView, Complete, LedgerEntryView, LotView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "../../lib/form";
import { type Column, Table } from "../Table";
import { LotsSection } from "./LotsSection";
import { type AdjustForm, ledgerKind, signed } from "./views";

export interface LotsState {
  lots: LotView[] | null;
  failed: string | null;
  reload: () => void;
  onExtended: (lot: LotView) => void;
}

const rules = lazySchema(() => import("../client-page").then((m) => m.adjustSchema));
const Input = FormField<AdjustForm>;

const LEDGER: Column<LedgerEntryView>[] = [
  { header: "Date", className: "nowrap", cell: (l) => shortDate(l.createdAt) },
  { header: "Change", cell: (l) => ledgerKind(l.kind) },
  { header: "Credits", numeric: true, cell: (l) => signed(l.deltaTotal) },
  { header: "Used", numeric: true, cell: (l) => signed(l.deltaUsed) },
  { header: "Note", cell: (l) => l.note ?? <span className="admin-muted">—</span> },
];

/** On a phone: one short row per change, its date and note under its kind. */
const LEDGER_COMPACT: Column<LedgerEntryView>[] = [
  {
    header: "Change",
    cell: (l) => (
      <>
        {ledgerKind(l.kind)}
        <span className="admin-table__sub">
          {shortDate(l.createdAt)}
          {l.note ? ` · ${l.note}` : ""}
        </span>
      </>
    ),
  },
  { header: "Credits", numeric: true, cell: (l) => signed(l.deltaTotal) },
  { header: "Used", numeric: true, cell: (l) => signed(l.deltaUsed) },
];

function AdjustCredits({ client, onChange, onAdjusted }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void; onAdjusted: () => void }) {
  const id = useId();
  const form = useZodForm<AdjustForm, Complete<AdjustCreditsBody>>({ schema: rules, defaultValues: { delta: "", reason: "" } });
  const busy = form.formState.isSubmitting;
  const adjust = async (payload: Complete<AdjustCreditsBody>) => {
    try {
      onChange(await POST("/api/admin/clients/{id}/credits", payload, { path: { id: client.userId } }));
      // Added credits are a lot of their own; removed ones leave the lots that expire first.
      onAdjusted();
      toast.success("Credits adjusted", { description: `${signed(payload.delta)} credits: ${payload.reason}` });
      form.reset();
    } catch (e) {
      if (e instanceof ApiError) showServerErrors(form, e.fields, ["delta", "reason"]);
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Failed to adjust credits." });
    }
  };
  return (
    <Form form={form} className="admin-form admin-client__adjust" onSubmit={adjust}>
      <h3 className="admin-client__subtitle">Adjust credits</h3>
      <Input name="delta" id={`${id}-delta`} label="Credits (+ to add, − to remove)">
        <input className="input" inputMode="numeric" autoComplete="off" />
      </Input>
      <Input name="reason" id={`${id}-reason`} label="Reason" hint="Kept in the ledger.">
        <input className="input" autoComplete="off" maxLength={500} />
      </Input>
      <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
        {busy ? "Adjusting..." : "Adjust credits"}
      </button>
    </Form>
  );
}

export function CreditsSection({ client, onChange, lots }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void; lots: LotsState }) {
  const id = useId();
  const a = client.account;
  const stats = [
    ["Available", a.availableCredits],
    ["Total", a.totalCredits],
    ["Used", a.usedCredits],
    ["Completed sessions", a.sessionsCompleted],
  ] as const;
  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        Credits
      </h2>
      <dl className="stat-grid admin-stats">
        {stats.map(([k, v]) => (
          <div className="stat admin-stat" key={k}>
            <dt className="stat__label">{k}</dt>
            <dd className="stat__value">{v}</dd>
          </div>
        ))}
      </dl>
      <LotsSection lots={lots.lots} failed={lots.failed} onRetry={lots.reload} onExtended={lots.onExtended} />
      <AdjustCredits client={client} onChange={onChange} onAdjusted={lots.reload} />
      <h3 className="admin-client__subtitle">Ledger</h3>
      <Table
        label="Credit ledger"
        columns={LEDGER}
        phone={{ columns: LEDGER_COMPACT, compact: true }}
        rows={client.ledger}
        rowKey={(l) => l.id}
        empty={<p className="admin-muted">No credit changes yet.</p>}
      />
    </section>
  );
}
