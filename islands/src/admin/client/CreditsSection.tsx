// The client page's credits: the totals, the credits by lot with their last day (Extend), an
// adjustment with a reason, and the ledger.
import { useId } from "react";
import { toast } from "../../lib/toast";
import type { AdjustCreditsBody, ClientDetailView, Complete, LedgerEntryView, LotView } from "../../api/types";
import { ApiError, POST } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
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

const ledger = (): Column<LedgerEntryView>[] => [
  { header: t("admin.col.date"), className: "nowrap", cell: (l) => shortDate(l.createdAt) },
  { header: t("adminClient.col.change"), cell: (l) => ledgerKind(l.kind) },
  { header: t("adminClient.col.credits"), numeric: true, cell: (l) => signed(l.deltaTotal) },
  { header: t("adminClient.col.used"), numeric: true, cell: (l) => signed(l.deltaUsed) },
  { header: t("adminClient.col.note"), cell: (l) => l.note ?? <span className="admin-muted">—</span> },
];

/** On a phone: one short row per change, its date and note under its kind. */
const ledgerCompact = (): Column<LedgerEntryView>[] => [
  {
    header: t("adminClient.col.change"),
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
  { header: t("adminClient.col.credits"), numeric: true, cell: (l) => signed(l.deltaTotal) },
  { header: t("adminClient.col.used"), numeric: true, cell: (l) => signed(l.deltaUsed) },
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
      toast.success(t("adminClient.adjust.done"), { description: t("adminClient.adjust.doneText", { delta: signed(payload.delta), reason: payload.reason }) });
      form.reset();
    } catch (e) {
      if (e instanceof ApiError) showServerErrors(form, e.fields, ["delta", "reason"]);
      toast.error(t("common.error.title"), { description: e instanceof ApiError ? e.message : t("adminClient.adjust.failed") });
    }
  };
  return (
    <Form form={form} className="admin-form admin-client__adjust" onSubmit={adjust}>
      <h3 className="admin-client__subtitle">{t("adminClient.adjust.title")}</h3>
      <Input name="delta" id={`${id}-delta`} label={t("adminClient.adjust.delta")}>
        <input className="input" inputMode="numeric" autoComplete="off" />
      </Input>
      <Input name="reason" id={`${id}-reason`} label={t("adminClient.reason")} hint={t("adminClient.adjust.reasonHint")}>
        <input className="input" autoComplete="off" maxLength={500} />
      </Input>
      <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
        {busy ? t("adminClient.adjust.busy") : t("adminClient.adjust.title")}
      </button>
    </Form>
  );
}

export function CreditsSection({ client, onChange, lots }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void; lots: LotsState }) {
  const id = useId();
  const a = client.account;
  const stats = [
    [t("adminClient.credits.available"), a.availableCredits],
    [t("adminClient.credits.total"), a.totalCredits],
    [t("adminClient.credits.used"), a.usedCredits],
    [t("adminClient.credits.completed"), a.sessionsCompleted],
  ] as const;
  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        {t("adminClient.credits.title")}
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
      <h3 className="admin-client__subtitle">{t("adminClient.ledger.title")}</h3>
      <Table
        label={t("adminClient.ledger.table")}
        columns={ledger()}
        phone={{ columns: ledgerCompact(), compact: true }}
        rows={client.ledger}
        rowKey={(l) => l.id}
        empty={<p className="admin-muted">{t("adminClient.ledger.none")}</p>}
      />
    </section>
  );
}
