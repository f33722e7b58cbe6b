// The purchase dialog of the pricing pages ('Complete Your Purchase', spec §2). The page's
// static 'Buy Now' buttons carry the package in data attributes; this island listens for
// their clicks. Signed out: a notice with Sign In / Sign Up tabs that switch to the form on
// success. Signed in: Full Name, Email (locked when known), Phone Number, then PayTabs.
// The purchase names a version of the site's catalogue (/catalogue.json): the button's
// data-catalogue-version when the page was built with one, else the deployed file's, read when
// this code loads. The API prices from that version (loading one it has not seen from the
// site) and refuses a page whose package has changed since.
import * as Dialog from "@radix-ui/react-dialog";
import { Suspense, lazy, useEffect, useState } from "react";
import { toast } from "sonner";
import { ApiError, POST } from "../lib/api";
import { type Money, type PurchaseBody } from "../api/types";
import { formatMoney } from "../lib/format";
import { signedInHint } from "../lib/hint";
import { mountIsland } from "../lib/mount";
import { type Session, currentSession, go } from "../lib/session";
import { Field, Spinner } from "../lib/ui";

export interface ChosenPackage {
  id: string;
  type: "individual" | "group";
  name: string;
  sessions: number;
  price: Money;
  /** The catalogue version the page was built with, when the button says (data-catalogue-version). */
  catalogueVersion?: string;
}

/** Reads the package a 'Buy Now' button describes. */
export function packageFrom(button: HTMLElement): ChosenPackage | null {
  const d = button.dataset;
  const sessions = Number(d.sessions);
  // The generator writes the price in minor units (piastres), the API's unit for money.
  const minor = Number(d.amount);
  if (!d.buyPackage || !d.packageName || !Number.isFinite(sessions) || !Number.isInteger(minor)) return null;
  const price = { minor, currency: "EGP" };
  const chosen: ChosenPackage = { id: d.buyPackage, type: d.packageType === "group" ? "group" : "individual", name: d.packageName, sessions, price };
  if (d.catalogueVersion) chosen.catalogueVersion = d.catalogueVersion;
  return chosen;
}

let published: Promise<string | undefined> | null = null;

/** The version of the catalogue the site publishes now (/catalogue.json, read once a page). */
export function publishedCatalogueVersion(): Promise<string | undefined> {
  published ??= fetch("/catalogue.json", { credentials: "same-origin", cache: "no-cache", headers: { Accept: "application/json" } })
    .then((r) => {
      if (!r.ok) throw new Error(`catalogue: ${r.status}`);
      return r.json() as Promise<unknown>;
    })
    .then((c) => {
      const v = (c as { version?: unknown } | null)?.version;
      if (typeof v !== "string") throw new Error("catalogue: no version");
      return v;
    })
    .catch(() => {
      published = null; // try again on the next purchase
      return undefined;
    });
  return published;
}

const loadAuthTabs = () => import("../lib/AuthTabs");
const AuthTabs = lazy(loadAuthTabs);
// This code loads on the first intent to buy; a visitor who is not signed in will see the
// sign-in forms, so their code starts downloading now rather than when the dialog opens.
if (typeof document !== "undefined" && signedInHint() === null) void loadAuthTabs();

function unitLabel(p: ChosenPackage): string {
  if (p.type === "group") return `${p.sessions} Hours of Group Coaching`;
  return `${p.sessions} ${p.sessions === 1 ? "Session" : "Sessions"}`;
}

function PurchaseForm({ pkg, session, onCancel, onSignedOut }: { pkg: ChosenPackage; session: Session; onCancel: () => void; onSignedOut: () => void }) {
  const [name, setName] = useState(session.profile.full_name);
  const [email, setEmail] = useState(session.profile.email);
  const [phone, setPhone] = useState(session.profile.phone ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const emailLocked = Boolean(session.profile.email);

  async function proceed(e: React.FormEvent) {
    e.preventDefault();
    const missing: Record<string, string> = {};
    if (!name.trim()) missing.name = "Full name is required";
    if (!email.trim()) missing.email = "Email is required";
    if (!phone.trim()) missing.phone = "Phone number is required";
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      // Without a version (the catalogue could not be read), the API prices from its newest.
      const catalogueVersion = pkg.catalogueVersion ?? (await publishedCatalogueVersion());
      const { redirectUrl } = await POST("/api/payments/paytabs/create", {
        packageType: pkg.type,
        sessions: pkg.sessions,
        // Requests carry amounts in pounds (the API compares this with the catalogue's price).
        amount: pkg.price.minor / 100,
        customerName: name.trim(),
        customerEmail: email.trim(),
        customerPhone: phone.trim(),
        isGuest: false,
        catalogueVersion,
      } satisfies PurchaseBody);
      if (!redirectUrl) throw new Error("No redirect URL received");
      go(redirectUrl);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) {
        toast.error("Authentication required", { description: "Please sign in or create an account to continue" });
        onSignedOut();
        return;
      }
      const message = err instanceof Error && err.message ? err.message : "Failed to initiate payment. Please try again.";
      toast.error("Payment failed", { description: message });
    }
  }

  return (
    <form className="form" onSubmit={proceed} noValidate>
      <Field id="buy-name" label="Full Name" error={errors.name}>
        <input className="input" id="buy-name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
      </Field>
      <Field id="buy-email" label="Email" error={errors.email} hint={emailLocked ? "The email of your account" : undefined}>
        <input className="input" id="buy-email" type="email" autoComplete="email" required readOnly={emailLocked} value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={!!errors.email} />
      </Field>
      <Field id="buy-phone" label="Phone Number" error={errors.phone}>
        <input className="input" id="buy-phone" type="tel" autoComplete="tel" required value={phone} onChange={(e) => setPhone(e.target.value)} aria-invalid={!!errors.phone} />
      </Field>
      <div className="dialog-actions">
        <button type="button" className="btn btn--outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn--gold" disabled={busy}>
          {busy ? "Processing..." : "Proceed to Payment"}
        </button>
      </div>
    </form>
  );
}

function PurchaseDialog() {
  const [pkg, setPkg] = useState<ChosenPackage | null>(null);
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  useEffect(() => {
    const open = (button: HTMLElement) => {
      const chosen = packageFrom(button);
      if (!chosen) return;
      setPkg(chosen);
      setSession(undefined);
      currentSession()
        .then(setSession)
        .catch(() => setSession(null));
    };
    const onClick = (e: MouseEvent) => {
      const button = (e.target as Element | null)?.closest<HTMLElement>("[data-buy-package]");
      if (!button) return;
      e.preventDefault();
      open(button);
    };
    document.addEventListener("click", onClick);
    // The catalogue's version is read now, on the first intent, long before the form is sent.
    void publishedCatalogueVersion();
    // This code loads on the first intent (pricing.html): a Buy Now clicked while it was on
    // its way is answered now.
    const pending = document.querySelector<HTMLElement>("[data-buy-package][data-pending-click]");
    if (pending) {
      pending.removeAttribute("data-pending-click");
      pending.removeAttribute("aria-busy");
      open(pending);
    }
    return () => document.removeEventListener("click", onClick);
  }, []);

  const close = () => setPkg(null);
  const ready = "You're now ready to complete your purchase.";
  return (
    <Dialog.Root open={pkg !== null} onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content">
          <Dialog.Title className="dialog-title">Complete Your Purchase</Dialog.Title>
          {pkg ? (
            <Dialog.Description className="dialog-description">
              {pkg.name}: {unitLabel(pkg)} for <strong>{formatMoney(pkg.price)}</strong>
            </Dialog.Description>
          ) : null}
          {pkg && session === undefined ? <Spinner /> : null}
          {pkg && session === null ? (
            <>
              <p className="notice">Please sign in or create an account to complete your purchase</p>
              <Suspense fallback={<Spinner />}>
                <AuthTabs onDone={setSession} successText={ready} idPrefix="buy" />
              </Suspense>
            </>
          ) : null}
          {pkg && session ? <PurchaseForm pkg={pkg} session={session} onCancel={close} onSignedOut={() => setSession(null)} /> : null}
          <Dialog.Close className="dialog-close" aria-label="Close">
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const mount = mountIsland(PurchaseDialog);
