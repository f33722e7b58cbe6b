// The languages an account's emails can be written in, each named in its own language (as a
// language switch names them), for a <select> of a form (FormField gives it its binding).
import type { ComponentProps } from "react";
import { LANGUAGES, type Lang } from "./i18n";

/** Each language in its own words. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", ar: "العربية" };

export function LanguageOptions(props: ComponentProps<"select">) {
  return (
    <select className="input" {...props}>
      {LANGUAGES.map((l) => (
        <option key={l} value={l} lang={l} dir={l === "ar" ? "rtl" : "ltr"}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
