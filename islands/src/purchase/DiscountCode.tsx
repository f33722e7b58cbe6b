// The purchase dialog's discount code: the client types it and applies it, and the server says
// what they would pay with it (POST /api/payments/discount/preview) or why not, under the field.
// The purchase then prices the order again with the code.
import { useId, useState } from "react";
import { ApiError, POST } from "../lib/api";
import { formatMoney } from "../lib/format";
import { t } from "../lib/i18n";
import type { ChosenPackage } from "./catalogue";

export interface AppliedCode {
  code: string;
  text: string;
}

export function DiscountCode(props: { pkg: ChosenPackage; catalogueVersion: () => Promise<string | undefined>; applied: AppliedCode | null; onApplied: (a: AppliedCode | null) => void; disabled: boolean }) {
  const id = useId();
  const [raw, setRaw] = useState("");
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function apply() {
    if (!raw.trim()) return;
    setChecking(true);
    setError(null);
    try {
      const p = await POST("/api/payments/discount/preview", {
        packageType: props.pkg.type,
        sessions: props.pkg.sessions,
        amount: props.pkg.price.minor / 100,
        catalogueVersion: await props.catalogueVersion(),
        discountCode: raw.trim(),
      });
      props.onApplied({
        code: p.code,
        text: t("purchase.discount.applied", { code: p.code, price: formatMoney(p.price), listPrice: formatMoney(p.listPrice), discount: formatMoney(p.discount) }),
      });
    } catch (err) {
      setError(err instanceof ApiError ? (err.fields.discountCode ?? err.message) : t("purchase.discount.failed"));
    } finally {
      setChecking(false);
    }
  }

  if (props.applied) {
    return (
      <div className="field discount-applied" role="status">
        <p className="discount-applied__text">{props.applied.text}</p>
        <button type="button" className="btn btn--outline btn--sm" disabled={props.disabled} onClick={() => props.onApplied(null)}>
          {t("purchase.discount.remove")}
        </button>
      </div>
    );
  }
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-code`}>
        {t("purchase.discount.label")}
      </label>
      <div className="discount-code">
        <input
          className="input"
          id={`${id}-code`}
          value={raw}
          maxLength={32}
          autoComplete="off"
          autoCapitalize="characters"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setRaw(e.target.value)}
          onKeyDown={(e) => {
            // Enter applies the code; it must not send the purchase.
            if (e.key === "Enter") {
              e.preventDefault();
              void apply();
            }
          }}
        />
        <button type="button" className="btn btn--outline" disabled={props.disabled || checking || !raw.trim()} aria-busy={checking} onClick={() => void apply()}>
          {checking ? t("purchase.discount.applying") : t("purchase.discount.apply")}
        </button>
      </div>
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
