// The package a pricing page's 'Buy Now' button describes, and the version of the site's
// catalogue (/catalogue.json) a purchase names: the button's data-catalogue-version when the
// page was built with one, else the deployed file's, read when the purchase dialog's code loads.
import type { Money } from "../api/types";
import { t } from "../lib/i18n";

export interface ChosenPackage {
  id: string;
  type: "individual" | "group";
  name: string;
  sessions: number;
  price: Money;
  /** The catalogue version the page was built with, when the button says (data-catalogue-version). */
  catalogueVersion?: string;
  /** PayTabs' codes of the methods the package may be paid with, in the settings' order
   * (data-payment-methods); empty on a page built before methods existed. */
  methods: string[];
}

/** Reads the package a 'Buy Now' button describes. */
export function packageFrom(button: HTMLElement): ChosenPackage | null {
  const d = button.dataset;
  const sessions = Number(d.sessions);
  // The generator writes the price in minor units (piastres), the API's unit for money.
  const minor = Number(d.amount);
  if (!d.buyPackage || !d.packageName || !Number.isFinite(sessions) || !Number.isInteger(minor)) return null;
  const price = { minor, currency: "EGP" };
  const methods = (d.paymentMethods ?? "").split(/\s+/).filter((m) => /^[a-z]{2,32}$/.test(m));
  const chosen: ChosenPackage = { id: d.buyPackage, type: d.packageType === "group" ? "group" : "individual", name: d.packageName, sessions, price, methods };
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

/** "5 Sessions", "10 Hours of Group Coaching". */
export function unitLabel(p: ChosenPackage): string {
  return t(p.type === "group" ? "purchase.units.group" : "purchase.units.sessions", { count: p.sessions });
}
