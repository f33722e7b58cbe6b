// The texts of the content pages' script (./site) and of the header's account link
// (lib/account-link): src/i18n/<lang>/page.json, compiled like the islands' catalogues and run
// by lib/messageformat. English, the default language, is bundled, so an English page reads as
// before, at once; an Arabic page loads its Arabic (a small chunk) first. The forms' texts are
// in ./forms-texts, with the forms' code.
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import EN_PAGE from "../i18n/en/page.json";
import { type Lang, localeOf, pageLang } from "../lib/lang";
import { formatParts } from "../lib/messageformat";

type Compiled = string | MessageFormatElement[];
export type PageKey = keyof typeof EN_PAGE;
type Texts = Record<string, Compiled>;

/** A catalogue with English at hand and another language loaded on demand. */
export function catalogue(english: unknown, arabic: () => Promise<{ default: unknown }>) {
  let texts = english as Texts;
  let lang: Lang = "en";
  let loading: Promise<void> | null = null;
  return {
    /** Loads the page's language (nothing to load for English). */
    load(language: Lang = pageLang()): Promise<void> {
      if (language === "en") return Promise.resolve();
      return (loading ??= arabic().then(
        (m) => {
          texts = m.default as Texts;
          lang = language;
        },
        (e: unknown) => {
          loading = null;
          console.error("page texts failed to load", e);
        },
      ));
    },
    text(key: string, values?: Record<string, string | number>): string {
      const message = texts[key] ?? (english as Texts)[key] ?? key;
      return typeof message === "string" ? message : formatParts(message, localeOf(lang), values).join("");
    },
  };
}

const page = catalogue(EN_PAGE, () => import("../i18n/ar/page.json"));

export const loadPageTexts = (lang?: Lang) => page.load(lang);
/** A text of the page script, in the page's language once `loadPageTexts` ran (English before). */
export const pageText = (key: PageKey, values?: Record<string, string | number>) => page.text(key, values);
