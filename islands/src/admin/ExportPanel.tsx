// The accounting export (issue 14 point 6): payments for a date range as a CSV download. The
// range is checked as it changes (./validation); the message goes under the last day. Loaded
// with the dialogs (./lazy), so the dashboard's first paint carries no form code.
import { useId } from "react";
import { FormProvider, useWatch } from "react-hook-form";
import { FormField, useZodForm } from "../lib/form";
import { t } from "../lib/i18n";
import type { ExportRange } from "./fields";
import { today } from "./helpers";
import { exportRangeSchema } from "./validation";

/** The first day of the current month, YYYY-MM-DD. */
function monthStart(day: string): string {
  return `${day.slice(0, 8)}01`;
}

export function exportPath(from: string, to: string): string {
  return `/api/admin/exports/payments?${new URLSearchParams({ from, to }).toString()}`;
}

const Day = FormField<ExportRange>;

export function ExportPanel() {
  const id = useId();
  const form = useZodForm<ExportRange>({ schema: exportRangeSchema, defaultValues: () => ({ from: monthStart(today()), to: today() }), live: true });
  const { from, to } = useWatch({ control: form.control }) as ExportRange;
  const problem = form.formState.errors.to?.message;
  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        {t("admin.export.title")}
      </h2>
      <p className="admin-panel__lead">{t("admin.export.lead")}</p>
      <FormProvider {...form}>
        <div className="admin-toolbar">
          <Day name="from" id={`${id}-from`} label={t("admin.export.from")} deps={["to"]}>
            <input className="input" type="date" />
          </Day>
          <Day name="to" id={`${id}-to`} label={t("admin.export.to")}>
            <input className="input" type="date" />
          </Day>
          {problem ? (
            <button type="button" className="btn btn--navy btn--sm" disabled>
              {t("admin.export.download")}
            </button>
          ) : (
            <a className="btn btn--navy btn--sm" href={exportPath(from, to)} download={`payments-${from}-to-${to}.csv`}>
              {t("admin.export.download")}
            </a>
          )}
        </div>
      </FormProvider>
    </section>
  );
}
