// The signed-in buyer's details before PayTabs (spec §2): Full Name, Email (locked when the
// account has one) and Phone Number, each required. Loaded with its rules (zod) on demand by
// the purchase dialog, like the sign-in forms.
import { useId, useState } from "react";
import { toast } from "../lib/toast";
import * as z from "zod/mini";
import type { PurchaseBody, TransferView } from "../api/types";
import { ApiError, POST } from "../lib/api";
import { Form, FormField, useZodForm } from "../lib/form";
import { localPath, t, tMaybe } from "../lib/i18n";
import { msg } from "../lib/validate";
import { type Session, go } from "../lib/session";
import { type ChosenPackage, publishedCatalogueVersion } from "./catalogue";
import { type AppliedCode, DiscountCode } from "./DiscountCode";
import { TransferDetails } from "./TransferDetails";

const required = (message: ReturnType<typeof msg>) => z.string().check(z.trim(), z.minLength(1, message));

export const buyerSchema = z.object({
  name: required(msg("purchase.rule.nameRequired")),
  email: required(msg("purchase.rule.emailRequired")),
  phone: required(msg("purchase.rule.phoneRequired")),
});

type Buyer = z.infer<typeof buyerSchema>;

export default function PurchaseForm({ pkg, session, onCancel, onSignedOut }: { pkg: ChosenPackage; session: Session; onCancel: () => void; onSignedOut: () => void }) {
  const form = useZodForm<Buyer>({
    schema: buyerSchema,
    defaultValues: { name: session.profile.full_name, email: session.profile.email, phone: session.profile.phone ?? "" },
  });
  const emailLocked = Boolean(session.profile.email);
  // How to pay: one of the package's methods (the first until the client picks another).
  const [method, setMethod] = useState(pkg.methods[0]);
  // A discount code the server has priced; sent with the purchase, which prices it again.
  const [code, setCode] = useState<AppliedCode | null>(null);
  // On its way to PayTabs: the buttons stay busy until the page leaves.
  const [leaving, setLeaving] = useState(false);
  const busy = form.formState.isSubmitting || leaving;
  // A transfer order placed: its instructions replace the form.
  const [placed, setPlaced] = useState<TransferView | null>(null);

  async function proceed(buyer: Buyer) {
    try {
      // Without a version (the catalogue could not be read), the API prices from its newest.
      const catalogueVersion = pkg.catalogueVersion ?? (await publishedCatalogueVersion());
      const order = {
        packageType: pkg.type,
        sessions: pkg.sessions,
        // Requests carry amounts in pounds (the API compares this with the catalogue's price).
        amount: pkg.price.minor / 100,
        customerName: buyer.name,
        customerEmail: buyer.email,
        customerPhone: buyer.phone,
        isGuest: false,
        catalogueVersion,
        discountCode: code?.code ?? null,
      } satisfies PurchaseBody;
      if (method === "transfer") {
        setPlaced(await POST("/api/payments/transfer/create", order));
        return;
      }
      const { redirectUrl } = await POST("/api/payments/paytabs/create", { ...order, paymentMethod: method } satisfies PurchaseBody);
      if (!redirectUrl) throw new Error(t("purchase.error.noRedirect"));
      setLeaving(true);
      go(redirectUrl);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        toast.error(t("purchase.error.authRequired"), { description: t("purchase.error.signInToContinue") });
        onSignedOut();
      } else {
        const message = err instanceof Error && err.message ? err.message : t("purchase.error.initiate");
        toast.error(t("purchase.error.paymentFailed"), { description: message });
      }
    }
  }

  if (placed) {
    return (
      <section className="transfer-placed" aria-labelledby="transfer-title" tabIndex={-1} ref={(el) => el?.focus()}>
        <h3 className="transfer-placed__title" id="transfer-title">
          {t("purchase.transfer.title")}
        </h3>
        <p>{t("purchase.transfer.lead")}</p>
        <TransferDetails transfer={placed} />
        <p className="field__hint">{t("purchase.transfer.emailed")}</p>
        <div className="dialog-actions">
          <a className="btn btn--gold" href={localPath("/dashboard")}>
            {t("purchase.transfer.dashboard")}
          </a>
        </div>
      </section>
    );
  }

  return (
    <Form form={form} className="form" onSubmit={proceed}>
      <FormField<Buyer> name="name" id="buy-name" label={t("purchase.field.fullName")}>
        <input className="input" autoComplete="name" required />
      </FormField>
      <FormField<Buyer> name="email" id="buy-email" label={t("purchase.field.email")} hint={emailLocked ? t("purchase.field.emailLocked") : undefined}>
        <input className="input" type="email" autoComplete="email" required readOnly={emailLocked} />
      </FormField>
      <FormField<Buyer> name="phone" id="buy-phone" label={t("purchase.field.phone")}>
        <input className="input" type="tel" autoComplete="tel" required />
      </FormField>
      {pkg.methods.length > 1 ? <MethodChoice methods={pkg.methods} value={method} onChange={setMethod} disabled={busy} /> : null}
      <DiscountCode
        pkg={pkg}
        catalogueVersion={async () => pkg.catalogueVersion ?? (await publishedCatalogueVersion())}
        applied={code}
        onApplied={setCode}
        disabled={busy}
      />
      <div className="dialog-actions">
        <button type="button" className="btn btn--outline" onClick={onCancel} disabled={busy}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="btn btn--gold" disabled={busy}>
          {busy ? t("purchase.busy") : t(method === "transfer" ? "purchase.placeOrder" : "purchase.proceed")}
        </button>
      </div>
    </Form>
  );
}

/** The package's ways to pay, as radio cards: the client's choice goes to PayTabs' page. */
function MethodChoice({ methods, value, onChange, disabled }: { methods: string[]; value: string | undefined; onChange: (m: string) => void; disabled: boolean }) {
  const name = useId();
  return (
    <fieldset className="choice-group" disabled={disabled}>
      <legend className="field__label">{t("purchase.field.method")}</legend>
      <div className="choice-group__options">
        {methods.map((m) => (
          <label key={m} className="choice">
            <input type="radio" name={name} value={m} checked={value === m} onChange={() => onChange(m)} />
            <span>{tMaybe(`purchase.method.${m}`) ?? m}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
