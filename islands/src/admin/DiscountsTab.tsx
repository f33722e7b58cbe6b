// The admin dashboard's Discount Codes tab (issue 22, item 4): the codes with their discount,
// packages, days, uses and status, switched off and on from the table, and the 'New discount
// code' dialog. The dashboard loads this module (and zod with it) when the tab is first shown.
// The packages to choose from are the site's, as it publishes them (/catalogue.json).
import { useEffect, useId, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import * as z from "zod/mini";
import type { CreateDiscountCodeBody, DiscountCodeView } from "../api/types";
import { ApiError, GET, POST } from "../lib/api";
import { formatMoney, shortDate } from "../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import { type MessageKey, lang, locale, t } from "../lib/i18n";
import { toast } from "../lib/toast";
import { DAY, msg } from "../lib/validate";
import { ErrorDetails, Modal } from "./dialog";
import { DialogButton, PlusIcon, RowActions } from "./parts";
import { type Column, Table } from "./Table";

// ------------------------------------------------------------------------------ the form's rules

/** The form's values, as its inputs hold them. */
export interface DiscountValues {
  code: string;
  kind: "percent" | "fixed";
  /** The percent (kind percent) or the amount in EGP (kind fixed). */
  value: string;
  packageIds: string[];
  validFrom: string;
  validTo: string;
  maxUses: string;
  oncePerClient: boolean;
}

export const discountDefaults = (): DiscountValues => ({
  code: "",
  kind: "percent",
  value: "",
  packageIds: [],
  validFrom: "",
  validTo: "",
  maxUses: "",
  oncePerClient: false,
});

/** The API's rules (domain::discounts), checked before sending. */
const CODE = /^[A-Za-z0-9_-]{3,32}$/;
const MAX_AMOUNT = 10_000_000;
const MAX_USES = 1_000_000;
const WHOLE = /^\d+$/;
const AMOUNT = /^\d+(\.\d{1,2})?$/;

type Message = ReturnType<typeof msg>;
/** A check across the form whose message lands on one field. */
const on = (field: keyof DiscountValues, ok: (f: DiscountValues) => boolean, message: Message) =>
  z.refine<DiscountValues>(ok, { ...message, path: [field] });
const blank = (s: string) => s.trim() === "";
const percentOk = (v: string) => WHOLE.test(v.trim()) && Number(v) >= 1 && Number(v) <= 100;
const fixed = (f: DiscountValues) => f.kind === "fixed";
const daysInOrder = (f: DiscountValues) => !DAY.test(f.validFrom) || !DAY.test(f.validTo) || f.validTo >= f.validFrom;

export const discountSchema = z.pipe(
  z
    .object({
      code: z.string(),
      kind: z.enum(["percent", "fixed"]),
      value: z.string(),
      packageIds: z.array(z.string()),
      validFrom: z.string(),
      validTo: z.string(),
      maxUses: z.string(),
      oncePerClient: z.boolean(),
    })
    .check(
      on("code", (f) => !blank(f.code), msg("admin.discounts.rule.codeRequired")),
      on("code", (f) => blank(f.code) || CODE.test(f.code.trim()), msg("admin.discounts.rule.code")),
      on("value", (f) => fixed(f) || percentOk(f.value), msg("admin.discounts.rule.percent")),
      on("value", (f) => !fixed(f) || (AMOUNT.test(f.value.trim()) && Number(f.value) > 0), msg("admin.discounts.rule.amount")),
      on("value", (f) => !fixed(f) || !(Number(f.value) > MAX_AMOUNT), msg("admin.discounts.rule.amountMax")),
      on("validFrom", (f) => f.validFrom === "" || DAY.test(f.validFrom), msg("admin.discounts.rule.day")),
      on("validTo", (f) => f.validTo === "" || DAY.test(f.validTo), msg("admin.discounts.rule.day")),
      on("validTo", daysInOrder, msg("admin.discounts.rule.dates")),
      on("maxUses", (f) => blank(f.maxUses) || (WHOLE.test(f.maxUses.trim()) && Number(f.maxUses) >= 1), msg("admin.discounts.rule.maxUses")),
      on("maxUses", (f) => blank(f.maxUses) || !(Number(f.maxUses) > MAX_USES), msg("admin.discounts.rule.maxUsesMax")),
    ),
  z.transform(
    (f): CreateDiscountCodeBody => ({
      code: f.code.trim().toUpperCase(),
      kind: f.kind,
      // Only the kind's own value: the API refuses the other one.
      ...(fixed(f) ? { amountOff: Math.round(Number(f.value.trim()) * 100) / 100 } : { percent: Number(f.value.trim()) }),
      packageIds: f.packageIds,
      validFrom: f.validFrom || null,
      validTo: f.validTo || null,
      maxUses: blank(f.maxUses) ? null : Number(f.maxUses.trim()),
      oncePerClient: f.oncePerClient,
    }),
  ),
);

/** The API's messages this tab knows, in the page's language (the API writes English). */
const API_MESSAGES: Record<string, MessageKey> = {
  "This code is already taken": "admin.discounts.rule.codeTaken",
  "Enter a code": "admin.discounts.rule.codeRequired",
  "Code must be 3 to 32 characters: letters A-Z, digits, - or _": "admin.discounts.rule.code",
  "Percent must be a whole number from 1 to 100": "admin.discounts.rule.percent",
  "Amount off must be more than 0, in steps of 0.01": "admin.discounts.rule.amount",
  "Amount off must be at most 10,000,000.00": "admin.discounts.rule.amountMax",
  "Valid from must be a date (YYYY-MM-DD)": "admin.discounts.rule.day",
  "Valid to must be a date (YYYY-MM-DD)": "admin.discounts.rule.day",
  "Valid to must be on or after valid from": "admin.discounts.rule.dates",
  "Total uses must be at least 1": "admin.discounts.rule.maxUses",
  "Total uses must be at most 1,000,000": "admin.discounts.rule.maxUsesMax",
};

/** One API message in the page's language, when this tab knows it. */
export function apiMessage(message: string): string {
  if (message.startsWith("Unknown package:")) return t("admin.discounts.rule.package");
  const key = API_MESSAGES[message];
  return key ? t(key) : message;
}

// ------------------------------------------------------------------------------ the packages

/** A package of the site's catalogue, as the form and the table name it. */
export interface PackageOption {
  id: string;
  name: string;
  sessions: number;
  active: boolean;
}

/** The packages of /catalogue.json, named in the page's language. */
export function packagesOf(catalogue: unknown): PackageOption[] {
  const list = (catalogue as { packages?: unknown } | null)?.packages;
  if (!Array.isArray(list)) return [];
  return list.flatMap((p: Record<string, unknown>) => {
    if (typeof p.id !== "string" || typeof p.name !== "string") return [];
    const names = (p.names ?? {}) as Record<string, unknown>;
    const own = names[lang()];
    return [{ id: p.id, name: typeof own === "string" ? own : p.name, sessions: Number(p.sessions) || 0, active: p.is_active !== false }];
  });
}

async function fetchPackages(): Promise<PackageOption[]> {
  const r = await fetch("/catalogue.json", { credentials: "same-origin", cache: "no-cache", headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`catalogue: ${r.status}`);
  return packagesOf(await r.json());
}

// ------------------------------------------------------------------------------ the table

function discountText(c: DiscountCodeView): string {
  return c.amountOff ? t("admin.discounts.amountOff", { amount: formatMoney(c.amountOff) }) : t("admin.discounts.percentOff", { percent: c.percent ?? 0 });
}

function packagesText(c: DiscountCodeView, packages: PackageOption[]): string {
  if (c.packageIds.length === 0) return t("admin.discounts.allPackages");
  const names = c.packageIds.map((id) => packages.find((p) => p.id === id)?.name ?? id);
  return new Intl.ListFormat(locale(), { style: "short", type: "conjunction" }).format(names);
}

function validityText(c: DiscountCodeView): string {
  const from = c.validFrom ? shortDate(c.validFrom) : null;
  const to = c.validTo ? shortDate(c.validTo) : null;
  if (from && to) return t("admin.discounts.between", { from, to });
  if (from) return t("admin.discounts.from", { date: from });
  if (to) return t("admin.discounts.until", { date: to });
  return t("admin.discounts.always");
}

function StatusBadge({ status }: { status: string }) {
  const variant = status === "active" ? "default" : status === "scheduled" ? "secondary" : "destructive";
  const known = ["active", "inactive", "scheduled", "expired", "used_up"].includes(status);
  return (
    <span className={`status-badge admin-badge admin-badge--${variant}`}>
      {known ? t(`admin.discounts.status.${status}` as MessageKey) : status}
    </span>
  );
}

function columns(packages: PackageOption[], busyId: string | null, onSwitch: (c: DiscountCodeView) => void): Column<DiscountCodeView>[] {
  return [
    { header: t("admin.discounts.col.code"), rowHeader: true, className: "nowrap", cell: (c) => <code dir="ltr">{c.code}</code> },
    { header: t("admin.discounts.col.discount"), className: "nowrap", cell: discountText },
    { header: t("admin.discounts.col.packages"), cell: (c) => packagesText(c, packages) },
    { header: t("admin.discounts.col.validity"), cell: validityText },
    {
      header: t("admin.discounts.col.uses"),
      note: t("admin.discounts.col.usesNote"),
      numeric: true,
      cell: (c) => (c.maxUses == null ? t("admin.discounts.usesUnlimited", { uses: c.uses }) : t("admin.discounts.usesOf", { uses: c.uses, max: c.maxUses })),
    },
    { header: t("admin.discounts.col.once"), cell: (c) => (c.oncePerClient ? t("admin.discounts.yes") : t("admin.discounts.no")) },
    { header: t("admin.discounts.col.status"), cell: (c) => <StatusBadge status={c.status} /> },
    {
      header: t("admin.discounts.col.actions"),
      hiddenHeader: true,
      cell: (c) => (
        <RowActions>
          <button
            type="button"
            className={c.isActive ? "btn btn--sm admin-btn--danger-outline" : "btn btn--sm btn--outline"}
            aria-label={t(c.isActive ? "admin.discounts.deactivateCode" : "admin.discounts.activateCode", { code: c.code })}
            disabled={busyId === c.id}
            aria-busy={busyId === c.id}
            onClick={() => onSwitch(c)}
          >
            {c.isActive ? t("admin.discounts.deactivate") : t("admin.discounts.activate")}
          </button>
        </RowActions>
      ),
    },
  ];
}

/** The codes (null while loading) and the site's packages (null while loading), read once. */
function useDiscountData() {
  const [rows, setRows] = useState<DiscountCodeView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [packages, setPackages] = useState<PackageOption[] | "failed" | null>(null);
  useEffect(() => {
    let live = true;
    GET("/api/admin/discount-codes")
      .then((r) => live && setRows(r))
      .catch(() => {
        if (!live) return;
        setFailed(true);
        toast.error(t("common.error.title"), { description: t("admin.discounts.loadFailed") });
      });
    fetchPackages()
      .then((p) => live && setPackages(p))
      .catch(() => live && setPackages("failed"));
    return () => {
      live = false;
    };
  }, []);
  return { rows, setRows, failed, packages };
}

export function DiscountsTab() {
  const { rows, setRows, failed, packages } = useDiscountData();
  const [creating, setCreating] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);

  async function switchCode(c: DiscountCodeView) {
    setBusyId(c.id);
    try {
      const path = c.isActive ? "/api/admin/discount-codes/{id}/deactivate" : "/api/admin/discount-codes/{id}/activate";
      const changed = await POST(path, {}, { path: { id: c.id } });
      setRows((list) => (list ?? []).map((r) => (r.id === changed.id ? changed : r)));
      toast.success(t(changed.isActive ? "admin.discounts.activated" : "admin.discounts.deactivated", { code: changed.code }));
    } catch (err) {
      toast.error(t("common.error.title"), { description: err instanceof ApiError ? apiMessage(err.message) : t("admin.discounts.switchFailed") });
    } finally {
      setBusyId(null);
    }
  }

  const known = Array.isArray(packages) ? packages : [];
  return (
    <section className="panel admin-panel" aria-labelledby="discounts-title">
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id="discounts-title">
            {t("admin.discounts.tab")}
          </h2>
          <p className="admin-panel__lead">{t("admin.discounts.lead")}</p>
        </div>
        <DialogButton className="btn btn--navy btn--sm" preload={() => undefined} onOpen={() => setCreating(true)}>
          <PlusIcon />
          {t("admin.discounts.new")}
        </DialogButton>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {rows === null ? "" : t("admin.discounts.found", { count: rows.length })}
      </p>
      {failed ? (
        <div className="notice notice--error" role="alert">
          {t("admin.discounts.loadFailed")}
        </div>
      ) : (
        <Table
          labelledBy="discounts-title"
          columns={columns(known, busyId, (c) => void switchCode(c))}
          rows={rows}
          rowKey={(c) => c.id}
          loadingRow={t("admin.discounts.loading")}
          empty={
            <div className="empty">
              <p className="empty__title">{t("admin.discounts.empty")}</p>
              <p>{t("admin.discounts.emptyText")}</p>
            </div>
          }
        />
      )}
      {creating ? (
        <NewCodeDialog
          packages={packages}
          onClose={() => setCreating(false)}
          onCreated={(code) => {
            setRows((list) => [code, ...(list ?? [])]);
            setCreating(false);
          }}
        />
      ) : null}
    </section>
  );
}

// ------------------------------------------------------------------------------ the dialog

const Input = FormField<DiscountValues>;
const FIELDS = ["code", "kind", "value", "packageIds", "validFrom", "validTo", "maxUses"] as const;

/** The packages as checkboxes in a fieldset; none checked is every package. */
function PackagesField({ id, packages }: { id: string; packages: PackageOption[] | "failed" | null }) {
  const { control, setValue, clearErrors, formState } = useFormContext<DiscountValues>();
  const chosen = useWatch({ control, name: "packageIds" });
  const error = formState.errors.packageIds?.message;
  const toggle = (pid: string, on: boolean) => {
    clearErrors("packageIds");
    setValue("packageIds", on ? [...chosen, pid] : chosen.filter((c) => c !== pid), { shouldDirty: true });
  };
  const note = packages === null ? t("admin.discounts.field.packagesLoading") : packages === "failed" ? t("admin.discounts.field.packagesFailed") : t("admin.discounts.field.packagesHint");
  const offered = Array.isArray(packages) ? packages.filter((p) => p.active || chosen.includes(p.id)) : [];
  return (
    <fieldset className="admin-fieldset" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="admin-fieldset__legend">{t("admin.discounts.col.packages")}</legend>
      {offered.map((p) => (
        <div className="client-check" key={p.id}>
          <input
            className="client-check__input"
            type="checkbox"
            id={`${id}-${p.id}`}
            checked={chosen.includes(p.id)}
            onChange={(e) => toggle(p.id, e.target.checked)}
          />
          <label className="client-check__label" htmlFor={`${id}-${p.id}`}>
            {t("admin.discounts.field.packageOption", { name: p.name, sessions: p.sessions })}
          </label>
        </div>
      ))}
      {typeof error === "string" && error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : (
        <p className="field__hint" id={`${id}-hint`}>
          {note}
        </p>
      )}
    </fieldset>
  );
}

function ValueField({ id }: { id: string }) {
  const kind = useWatch<DiscountValues, "kind">({ name: "kind" });
  return kind === "fixed" ? (
    <Input name="value" id={`${id}-value`} label={t("admin.discounts.field.amount")} hint={t("admin.discounts.field.amountHint")}>
      <input className="input" type="number" inputMode="decimal" min={0.01} step={0.01} />
    </Input>
  ) : (
    <Input name="value" id={`${id}-value`} label={t("admin.discounts.field.percent")} hint={t("admin.discounts.field.percentHint")}>
      <input className="input" type="number" inputMode="numeric" min={1} max={100} step={1} />
    </Input>
  );
}

function CodeFields({ id, packages }: { id: string; packages: PackageOption[] | "failed" | null }) {
  const { register } = useFormContext<DiscountValues>();
  return (
    <>
      <div className="form__row">
        <Input name="code" id={`${id}-code`} label={t("admin.discounts.col.code")} hint={t("admin.discounts.field.codeHint")}>
          <input className="input" type="text" dir="ltr" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={32} />
        </Input>
        <Input name="kind" id={`${id}-kind`} label={t("admin.discounts.field.kind")}>
          <select className="input">
            <option value="percent">{t("admin.discounts.kind.percent")}</option>
            <option value="fixed">{t("admin.discounts.kind.fixed")}</option>
          </select>
        </Input>
      </div>
      <ValueField id={id} />
      <PackagesField id={`${id}-packages`} packages={packages} />
      <div className="form__row">
        <Input name="validFrom" id={`${id}-from`} label={t("admin.discounts.field.validFrom")} hint={t("admin.discounts.field.datesHint")}>
          <input className="input" type="date" />
        </Input>
        <Input name="validTo" id={`${id}-to`} label={t("admin.discounts.field.validTo")}>
          <input className="input" type="date" />
        </Input>
      </div>
      <Input name="maxUses" id={`${id}-uses`} label={t("admin.discounts.field.maxUses")} hint={t("admin.discounts.field.maxUsesHint")}>
        <input className="input" type="number" inputMode="numeric" min={1} step={1} />
      </Input>
      <div className="client-check">
        <input className="client-check__input" type="checkbox" id={`${id}-once`} {...register("oncePerClient")} />
        <label className="client-check__label" htmlFor={`${id}-once`}>
          {t("admin.discounts.field.once")}
        </label>
      </div>
    </>
  );
}

const LABELS = (): Record<string, string> => ({
  code: t("admin.discounts.col.code"),
  kind: t("admin.discounts.field.kind"),
  percent: t("admin.discounts.field.percent"),
  amountOff: t("admin.discounts.field.amount"),
  packageIds: t("admin.discounts.col.packages"),
  validFrom: t("admin.discounts.field.validFrom"),
  validTo: t("admin.discounts.field.validTo"),
  maxUses: t("admin.discounts.field.maxUses"),
});

function NewCodeDialog(props: { packages: PackageOption[] | "failed" | null; onClose: () => void; onCreated: (code: DiscountCodeView) => void }) {
  const id = useId();
  const form = useZodForm<DiscountValues, CreateDiscountCodeBody>({ schema: discountSchema, defaultValues: discountDefaults });
  const busy = form.formState.isSubmitting;
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);

  async function submit(body: CreateDiscountCodeBody) {
    setFailure(null);
    try {
      const created = await POST("/api/admin/discount-codes", body);
      toast.success(t("admin.discounts.created", { code: created.code }));
      props.onCreated(created);
    } catch (err) {
      const fields = Object.fromEntries(Object.entries(err instanceof ApiError ? err.fields : {}).map(([k, v]) => [k, apiMessage(v)]));
      const message = err instanceof ApiError ? apiMessage(err.message) : t("admin.discounts.createFailed");
      const valueIs = body.kind === "fixed" ? "amountOff" : "percent";
      showServerErrors(form, fields, FIELDS, (name) => (name === "value" ? valueIs : name));
      setFailure({ message, fields });
      toast.error(t("common.error.title"), { description: message });
    }
  }

  return (
    <Modal open wide onOpenChange={(open) => !open && !busy && props.onClose()} title={t("admin.discounts.new")} description={t("admin.discounts.form.text")}>
      <Form form={form} className="form admin-form" onSubmit={submit} onInvalid={() => setFailure(null)} aria-busy={busy}>
        {failure ? <ErrorDetails message={failure.message} fields={failure.fields} labels={LABELS()} /> : null}
        <CodeFields id={id} packages={props.packages} />
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {busy ? t("admin.discounts.creating") : t("admin.discounts.create")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
