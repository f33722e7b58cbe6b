// Small shared pieces, styled by the theme's classes (themes/default/assets/css/site.css and
// islands.css).
import type { ReactNode } from "react";
import { t, tMaybe } from "./i18n";

export function Spinner({ label = t("common.loading") }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

/** A labelled control with its hint (while no error shows) and its error message
 *  (`${id}-error`, which the control names in aria-describedby: see ./form). `hintId` gives the
 *  hint an id, for a control it describes. */
export function Field(props: { id: string; label: string; error?: string | undefined; hint?: string | undefined; hintId?: string | undefined; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.children}
      {props.hint && !props.error ? (
        <p className="field__hint" id={props.hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p className="field__error" id={`${props.id}-error`} role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** Badge colours of spec §2: green confirmed, red cancelled, yellow anything else. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === "confirmed" ? "success" : status === "cancelled" ? "danger" : "warning";
  return <span className={`status-badge status-badge--${tone}`}>{tMaybe(`common.status.${status}`) ?? status.replace("_", " ")}</span>;
}
