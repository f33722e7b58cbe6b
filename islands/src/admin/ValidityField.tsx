// The validity picker of Add Payment and Add User: how many months the granted credits last.
// The first choice sends nothing, so the API applies settings `credits.default_validity_months`.
import { FormField } from "../lib/form";
import { t } from "../lib/i18n";
import { defaultValidityMonths } from "../lib/site-settings";
import { VALIDITY_CHOICES, monthsLabel } from "./helpers";

/** The first choice, naming the settings' default when the page was built with it:
 *  "Default: 6 months (site settings)", else "Default (site settings)". */
export function defaultValidityLabel(months: number | null = defaultValidityMonths()): string {
  return months ? t("admin.validity.defaultOf", { months: monthsLabel(months) }) : t("admin.validity.default");
}

/** The `validityMonths` field of the surrounding form. */
export function ValidityField(props: { id: string; hint: string }) {
  return (
    <FormField<{ validityMonths: string }> name="validityMonths" id={props.id} label={t("admin.validity.label")} hint={props.hint}>
      <select className="input">
        <option value="">{defaultValidityLabel()}</option>
        {VALIDITY_CHOICES.map((n) => (
          <option key={n} value={String(n)}>
            {monthsLabel(n)}
          </option>
        ))}
      </select>
    </FormField>
  );
}
