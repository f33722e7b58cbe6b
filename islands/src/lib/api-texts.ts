// The API's messages in the page's language. The API answers in English (its messages are the
// spec's texts); on an Arabic page each message it knows reads in Arabic: src/i18n/ar/errors.json,
// keyed by the API's English text, `{name}` standing for a part that varies ("At most {most}
// unused credits can be removed"). Any other message stays as the API wrote it. This module and
// its catalogue load with the first refusal an Arabic page meets (lib/api), never with the page.
import type { Catalogue, Lang, Values } from "./i18n";
import { format } from "./i18n";

const TEXTS: Partial<Record<Lang, () => Promise<{ default: unknown }>>> = { ar: () => import("../i18n/ar/errors.json") };

interface Pattern {
  re: RegExp;
  names: string[];
  key: string;
}

const loaded = new Map<Lang, Promise<{ texts: Catalogue; patterns: Pattern[] }>>();

/** "At most {most} {currency} can be refunded" → a pattern that reads `most` and `currency`. */
export function patternOf(key: string): Pattern {
  const names: string[] = [];
  const source = key
    .split(/\{(\w+)\}/)
    .map((part, i) => {
      if (i % 2 === 1) {
        names.push(part);
        return "(.+?)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { re: new RegExp(`^${source}$`), names, key };
}

function textsOf(lang: Lang) {
  let p = loaded.get(lang);
  if (!p) {
    const load = TEXTS[lang];
    p = (load ? load().then((m) => m.default as Catalogue) : Promise.resolve({} as Catalogue)).then((texts) => ({
      texts,
      patterns: Object.keys(texts)
        .filter((k) => /\{\w+\}/.test(k))
        .map(patternOf),
    }));
    p.catch(() => loaded.delete(lang));
    loaded.set(lang, p);
  }
  return p;
}

/** One message of the API in `lang`: its translation when known, else as the API wrote it. */
export function translate(message: string, texts: Catalogue, patterns: Pattern[]): string {
  const exact = texts[message];
  if (exact !== undefined) return format(exact);
  for (const { re, names, key } of patterns) {
    const m = re.exec(message);
    const text = texts[key];
    if (!m || text === undefined) continue;
    const values: Values = {};
    names.forEach((name, i) => {
      const v = m[i + 1] ?? "";
      values[name] = /^-?\d+$/.test(v) ? Number(v) : v;
    });
    return format(text, values);
  }
  return message;
}

/** The API's message and field messages in `lang` (English: as they are). */
export async function apiTexts(lang: Lang, message: string, fields: Record<string, string>): Promise<{ message: string; fields: Record<string, string> }> {
  if (lang === "en") return { message, fields };
  const { texts, patterns } = await textsOf(lang);
  return {
    message: translate(message, texts, patterns),
    fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, translate(v, texts, patterns)])),
  };
}
