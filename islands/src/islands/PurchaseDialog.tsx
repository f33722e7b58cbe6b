// The purchase dialog of the pricing pages ('Complete Your Purchase', spec §2). The page's
// static 'Buy Now' buttons carry the package in data attributes; this island listens for
// their clicks. Signed out: a notice with Sign In / Sign Up tabs that switch to the form on
// success. Signed in: Full Name, Email (locked when known), Phone Number, then PayTabs
// (../purchase/PurchaseForm). The purchase names a version of the site's catalogue
// (../purchase/catalogue): the API prices from that version (loading one it has not seen from
// the site) and refuses a page whose package has changed since.
import * as Dialog from "@radix-ui/react-dialog";
import { Suspense, lazy, useEffect, useState } from "react";
import { formatMoney } from "../lib/format";
import { signedInHint } from "../lib/hint";
import { t } from "../lib/i18n";
import { rich } from "../lib/rich";
import { mountIsland } from "../lib/mount";
import { type Session, currentSession } from "../lib/session";
import { Spinner } from "../lib/ui";
import { type ChosenPackage, packageFrom, publishedCatalogueVersion, unitLabel } from "../purchase/catalogue";

export { packageFrom };

const loadAuthTabs = () => import("../lib/AuthTabs");
const AuthTabs = lazy(loadAuthTabs);
const loadPurchaseForm = () => import("../purchase/PurchaseForm");
const PurchaseForm = lazy(loadPurchaseForm);
// This code loads on the first intent to buy: the form the visitor will see (sign-in forms
// when signed out, the buyer's details when signed in) starts downloading now rather than when
// the dialog opens (signed out, the buyer's details follow once signed in).
if (typeof document !== "undefined") void (signedInHint() === null ? loadAuthTabs().then(loadPurchaseForm) : loadPurchaseForm()).catch(() => undefined);

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
  const ready = t("purchase.ready");
  return (
    <Dialog.Root open={pkg !== null} onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content">
          <Dialog.Title className="dialog-title">{t("purchase.title")}</Dialog.Title>
          {pkg ? (
            <Dialog.Description className="dialog-description">
              {rich("purchase.summary", { name: pkg.name, units: unitLabel(pkg), price: formatMoney(pkg.price), strong: (c) => <strong>{c}</strong> })}
            </Dialog.Description>
          ) : null}
          {pkg && session === undefined ? <Spinner /> : null}
          {pkg && session === null ? (
            <>
              <p className="notice">{t("purchase.signInFirst")}</p>
              <Suspense fallback={<Spinner />}>
                <AuthTabs onDone={setSession} successText={ready} idPrefix="buy" />
              </Suspense>
            </>
          ) : null}
          {pkg && session ? (
            <Suspense fallback={<Spinner />}>
              <PurchaseForm pkg={pkg} session={session} onCancel={close} onSignedOut={() => setSession(null)} />
            </Suspense>
          ) : null}
          <Dialog.Close className="dialog-close" aria-label={t("common.close")}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const mount = mountIsland(PurchaseDialog, ["purchase", "auth"]);
