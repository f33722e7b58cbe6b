// Formats a message the build compiled (messages.mjs) from ICU MessageFormat to FormatJS's AST:
// the part of intl-messageformat the islands use (text, {arguments}, plural with =N and #,
// select, and <tags>), on the browser's Intl.PluralRules, in a few hundred bytes instead of
// intl-messageformat's 2.5 KB gzip, which the pages' budget (8 KB with the catalogues) cannot
// spare. tests/i18n.test.ts formats every message of every catalogue with both and compares.
// Number, date and time arguments are refused when the catalogue is compiled: figures and
// dates reach a message already written (lib/format).
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";

export type Values = Record<string, unknown>;

const pluralRules = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

function cached<T>(map: Map<string, T>, key: string, make: () => T): T {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

/** The message's parts: strings (adjacent ones joined) and what its tags' functions return. */
export function formatParts(elements: MessageFormatElement[], locale: string, values: Values = {}, pound?: number): unknown[] {
  const out: unknown[] = [];
  const push = (part: unknown) => {
    if (typeof part === "string" && typeof out[out.length - 1] === "string") out[out.length - 1] += part;
    else out.push(part);
  };
  for (const el of elements) {
    switch (el.type) {
      case 0: // literal
        push(el.value);
        break;
      case 7: // # in a plural
        if (pound !== undefined) push(cached(numbers, locale, () => new Intl.NumberFormat(locale)).format(pound));
        break;
      case 1: {
        // {name}
        const v = values[el.value];
        push(typeof v === "string" || typeof v === "number" || typeof v === "bigint" ? String(v) : v == null || v === false ? "" : v);
        break;
      }
      case 5: {
        // {name, select, a {…} other {…}}
        const key = String(values[el.value]);
        const option = (Object.prototype.hasOwnProperty.call(el.options, key) ? el.options[key] : undefined) ?? el.options.other;
        if (option) for (const p of formatParts(option.value, locale, values, pound)) push(p);
        break;
      }
      case 6: {
        // {count, plural, =0 {…} one {…} other {…}}
        const n = Number(values[el.value]);
        const offset = el.offset || 0;
        let option = el.options[`=${n}`];
        if (!option) {
          const rules = cached(pluralRules, `${locale}|${el.pluralType ?? "cardinal"}`, () => new Intl.PluralRules(locale, { type: el.pluralType ?? "cardinal" }));
          option = el.options[rules.select(n - offset)] ?? el.options.other;
        }
        if (option) for (const p of formatParts(option.value, locale, values, n - offset)) push(p);
        break;
      }
      case 8: {
        // <tag>…</tag>: the value is a function of the tag's content
        const fn = values[el.value];
        const children = formatParts(el.children, locale, values, pound);
        const made = typeof fn === "function" ? (fn as (chunks: unknown[]) => unknown)(children) : children;
        for (const p of Array.isArray(made) ? made : [made]) push(p);
        break;
      }
      default:
        throw new Error(`unsupported message element ${el.type}`);
    }
  }
  return out;
}
