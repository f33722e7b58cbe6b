// The page's language, without the islands' catalogues: the content pages' own script
// (../page) needs it too, and must stay small. See ./i18n.

export type Lang = "en" | "ar";
export const LANGUAGES: readonly Lang[] = ["en", "ar"];

/** The page's language: `<html lang>`, `ar` for Arabic (ar, ar-EG…), else English. */
export function pageLang(doc: Document | undefined = globalThis.document): Lang {
  const lang = doc?.documentElement?.lang?.toLowerCase() ?? "";
  return lang === "ar" || lang.startsWith("ar-") ? "ar" : "en";
}

/** The Intl locale of a language: English as the spec's formats read (en-US), Arabic as written
 *  in Egypt with Western digits. */
export function localeOf(l: Lang): string {
  return l === "ar" ? "ar-EG-u-nu-latn" : "en-US";
}

/** A path of the site in language `l`: `/dashboard` → `/ar/dashboard` (`/` → `/ar/`);
 *  English, the default language, has no prefix; other addresses stay as they are. */
export function pathIn(l: Lang, path: string): string {
  if (l === "en" || !path.startsWith("/") || path.startsWith("//") || path.startsWith(`/${l}/`) || path === `/${l}`) return path;
  return path === "/" ? `/${l}/` : `/${l}${path}`;
}
