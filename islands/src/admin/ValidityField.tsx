// The validity picker of Add Payment and Add User: how many months the granted credits last.
// The first choice sends nothing, so the API applies settings `credits.default_validity_months`.
import type { ComponentProps } from "react";
import { Field } from "../lib/ui";
import { defaultValidityMonths } from "../lib/site-settings";
import { VALIDITY_CHOICES, monthsLabel } from "./helpers";

export const DEFAULT_VALIDITY_LABEL = "Default (site settings)";

/** The first choice, naming the settings' default when the page was built with it. */
export function defaultValidityLabel(months: number | null = defaultValidityMonths()): string {
  return months ? `Default: ${monthsLabel(months)} (site settings)` : DEFAULT_VALIDITY_LABEL;
}

export function ValidityField(props: { id: string; error?: string; hint: string; select: ComponentProps<"select"> }) {
  return (
    <Field id={props.id} label="Credits valid for" error={props.error} hint={props.hint}>
      <select className="input" {...props.select}>
        <option value="">{defaultValidityLabel()}</option>
        {VALIDITY_CHOICES.map((n) => (
          <option key={n} value={String(n)}>
            {monthsLabel(n)}
          </option>
        ))}
      </select>
    </Field>
  );
}
