// The islands' languages (issue 21). An island speaks its page's language
// (`<html lang="ar">` → Arabic, anything else → English, the default) and loads only that
// language's messages: src/i18n/<lang>/<namespace>.json, ICU MessageFormat, one dynamic import
// each (a chunk of its own), compiled to FormatJS's AST by the build (messages.mjs) and run by
// ./messageformat. Plural rules, numbers and dates come from the browser's own Intl; Arabic
// writes Western digits (`-u-nu-latn`), as Egyptian business writing does.
//
//   await loadMessages(["admin"]);           // mountIsland does this before the first render
//   t("admin.clients.found", { count: 3 })   // "3 clients found" / "تم العثور على 3 عملاء"
//   localPath("/dashboard")                  // "/dashboard" / "/ar/dashboard"
//
// The API answers in English; on an Arabic page ./api-texts gives the Arabic of the messages
// it knows (loaded with the first refusal).
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { formatParts } from "./messageformat";
import type AddPayment from "../i18n/en/addPayment.json";
import type Admin from "../i18n/en/admin.json";
import type AdminClient from "../i18n/en/adminClient.json";
import type AdminClientDialogs from "../i18n/en/adminClientDialogs.json";
import type AdminDashboard from "../i18n/en/adminDashboard.json";
import type AdminDialogs from "../i18n/en/adminDialogs.json";
import type Auth from "../i18n/en/auth.json";
import type Booking from "../i18n/en/booking.json";
import type Common from "../i18n/en/common.json";
import type Dashboard from "../i18n/en/dashboard.json";
import type Discounts from "../i18n/en/discounts.json";
import type Invoice from "../i18n/en/invoice.json";
import type Payment from "../i18n/en/payment.json";
import type Purchase from "../i18n/en/purchase.json";
import type Receipt from "../i18n/en/receipt.json";
import type SponsorReport from "../i18n/en/sponsorReport.json";
import type Sponsors from "../i18n/en/sponsors.json";
import type System from "../i18n/en/system.json";

import { type Lang, LANGUAGES, localeOf, pageLang, pathIn } from "./lang";

export { type Lang, LANGUAGES, pageLang };

/**
 * A catalogue file: what one page or one lazily loaded part of it shows. `common` comes with
 * every island; an island names the others it shows at first (`mountIsland(X, ["dashboard"])`),
 * and a lazily loaded part (the admin's dialogs) loads its own with its code.
 */
export type Namespace =
  | "common"
  | "auth"
  | "purchase"
  | "dashboard"
  | "booking"
  | "payment"
  | "receipt"
  | "admin"
  | "adminDashboard"
  | "adminDialogs"
  | "addPayment"
  | "adminClient"
  | "adminClientDialogs"
  | "discounts"
  | "sponsors"
  | "system"
  | "invoice"
  | "sponsorReport";
export const NAMESPACES: readonly Namespace[] = [
  "common",
  "auth",
  "purchase",
  "dashboard",
  "booking",
  "payment",
  "receipt",
  "admin",
  "adminDashboard",
  "adminDialogs",
  "addPayment",
  "adminClient",
  "adminClientDialogs",
  "discounts",
  "sponsors",
  "system",
  "invoice",
  "sponsorReport",
];
type Keys<T> = keyof T & string;
export type MessageKey =
  | Keys<typeof Common>
  | Keys<typeof Auth>
  | Keys<typeof Purchase>
  | Keys<typeof Dashboard>
  | Keys<typeof Booking>
  | Keys<typeof Payment>
  | Keys<typeof Receipt>
  | Keys<typeof Admin>
  | Keys<typeof AdminDashboard>
  | Keys<typeof AdminDialogs>
  | Keys<typeof AddPayment>
  | Keys<typeof AdminClient>
  | Keys<typeof AdminClientDialogs>
  | Keys<typeof Discounts>
  | Keys<typeof Sponsors>
  | Keys<typeof System>
  | Keys<typeof Invoice>
  | Keys<typeof SponsorReport>;

/** A compiled message: plain text, or FormatJS's AST. */
export type Compiled = string | MessageFormatElement[];
export type Catalogue = Record<string, Compiled>;

/** One catalogue file, a chunk of its own. */
const catalogue = (language: Lang, ns: Namespace): Promise<Catalogue> =>
  import(`../i18n/${language}/${ns}.json`).then((m: { default: Catalogue }) => m.default);

let current: Lang = "en";
let messages: Catalogue = {};
const loaded = new Set<Namespace>();

/** The language the islands speak now (the page's, once `loadMessages` ran). */
export function lang(): Lang {
  return current;
}

export const isRtl = (l: Lang = current) => l === "ar";
export const dir = (l: Lang = current): "rtl" | "ltr" => (isRtl(l) ? "rtl" : "ltr");

/** The Intl locale of a language: English as the spec's formats read (en-US), Arabic as written
 *  in Egypt with Western digits. */
export function locale(l: Lang = current): string {
  return localeOf(l);
}

/**
 * Loads the messages of `namespaces` (and `common`) in `language` (the page's by default) and
 * makes it the islands' language. Each file loads once.
 */
export async function loadMessages(namespaces: readonly Namespace[] = [], language: Lang = pageLang()): Promise<void> {
  if (language !== current) {
    current = language;
    messages = {};
    loaded.clear();
  }
  const wanted = [...new Set<Namespace>(["common", ...namespaces])].filter((ns) => !loaded.has(ns));
  const catalogues = await Promise.all(wanted.map((ns) => catalogue(language, ns)));
  if (language !== current) return; // another language was asked for meanwhile
  catalogues.forEach((c, i) => {
    Object.assign(messages, c);
    loaded.add(wanted[i] as Namespace);
  });
}

/** Whether a message with this key is loaded. */
export function has(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

export type Values = Record<string, string | number | null | undefined>;

/** A compiled message with its arguments filled in, as text. */
export function format(message: Compiled, values?: Values): string {
  return typeof message === "string" ? message : formatParts(message, locale(), values).join("");
}

/** The message `key` in the islands' language, its `{arguments}` filled in. */
export function t(key: MessageKey, values?: Values): string {
  const message = messages[key];
  if (message === undefined) {
    console.error(`i18n: no message ${key} (${current})`);
    return key;
  }
  return format(message, values);
}

/** A message whose key is built at run time (a status, a method), or undefined when unknown. */
export function tMaybe(key: string, values?: Values): string | undefined {
  return has(key) ? t(key, values) : undefined;
}

/** The compiled message itself (for rich text: ./rich). */
export function compiled(key: MessageKey): Compiled | undefined {
  return messages[key];
}

// ---------------------------------------------------------------- addresses

/** A path of the site in the islands' language: `/dashboard` → `/ar/dashboard` on an Arabic
 *  page (`/` → `/ar/`); English, the default language, has no prefix. */
export function localPath(path: string, l: Lang = current): string {
  return pathIn(l, path);
}
