// The islands in English and Arabic (issue 21): the catalogues agree key for key and argument
// for argument, the build's compiled messages format as intl-messageformat formats the ICU
// source, Arabic counts with its six plural forms, money and dates are written as each language
// writes them (Western digits), the API's English messages read in Arabic on an Arabic page, and
// links stay in the page's language.
import { readFileSync, readdirSync } from "node:fs";
import { type MessageFormatElement, parse } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";
import { afterEach, describe, expect, it } from "vitest";
import { compileMessage } from "../messages.mjs";
import { patternOf, translate, apiTexts } from "../src/lib/api-texts";
import { credits, formatMoney, longDateTime, sessions, shortDate, timeOfDay, zoneName } from "../src/lib/format";
import { type Lang, NAMESPACES, lang, loadMessages, localPath, locale, pageLang, t } from "../src/lib/i18n";
import { formatParts } from "../src/lib/messageformat";

const dir = new URL("../src/i18n/", import.meta.url);
const read = (l: string, ns: string): Record<string, string> => JSON.parse(readFileSync(new URL(`${l}/${ns}.json`, dir), "utf8"));
const LANGS: Lang[] = ["en", "ar"];
/** The islands' namespaces, and the content pages' script's own texts (src/page/texts). */
const FILES: string[] = [...NAMESPACES, "page", "forms"];

afterEach(async () => {
  await loadMessages(NAMESPACES, "en");
});

/** The arguments a message takes ({name}, plural and select arguments) and its tags (<name>). */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type !== 0 && el.type !== 7 && el.type !== 8) into.add(el.value);
    if (el.type === 8) {
      into.add(`<${el.value}>`);
      argumentsOf(el.children, into);
    }
    if (el.type === 5 || el.type === 6) for (const o of Object.values(el.options)) argumentsOf(o.value, into);
  }
  return into;
}
const args = (message: string) => [...argumentsOf(parse(message))].sort();

describe("the catalogues", () => {
  it("has one file per namespace in each language, and nothing else", () => {
    for (const l of LANGS) {
      const files = readdirSync(new URL(`${l}/`, dir)).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
      expect(files.filter((f) => f !== "errors").sort()).toEqual([...FILES].sort());
    }
  });

  it("gives every English key an Arabic text and the other way round", () => {
    for (const ns of FILES) {
      const en = Object.keys(read("en", ns)).sort();
      const ar = Object.keys(read("ar", ns)).sort();
      expect({ ns, missingInArabic: en.filter((k) => !ar.includes(k)), missingInEnglish: ar.filter((k) => !en.includes(k)) }).toEqual({
        ns,
        missingInArabic: [],
        missingInEnglish: [],
      });
    }
  });

  it("uses a key in one file only, and no empty text", () => {
    for (const l of LANGS) {
      const seen = new Map<string, string>();
      for (const ns of FILES) {
        for (const [key, text] of Object.entries(read(l, ns))) {
          expect(seen.get(key), `${key} is in ${seen.get(key)} and ${ns}`).toBeUndefined();
          seen.set(key, ns);
          expect(text.trim(), `${l}/${ns}: ${key}`).not.toBe("");
        }
      }
    }
  });

  it("gives the Arabic text of a message the same ICU arguments and tags as the English", () => {
    for (const ns of FILES) {
      const en = read("en", ns);
      const ar = read("ar", ns);
      for (const key of Object.keys(en)) {
        expect({ key, args: args(ar[key] ?? "") }).toEqual({ key, args: args(en[key] ?? "") });
      }
    }
  });

  it("compiles every message, and plain text to plain strings", () => {
    for (const l of LANGS) {
      for (const ns of FILES) for (const [key, text] of Object.entries(read(l, ns))) expect(() => compileMessage(text, key)).not.toThrow();
    }
    expect(compileMessage("This wasn't me")).toBe("This wasn't me");
    expect(compileMessage("Keep '{'braces'}'")).toBe("Keep {braces}");
    expect(Array.isArray(compileMessage("{n, plural, one {# a} other {# b}}"))).toBe(true);
    // Figures and dates reach a message written (lib/format), so they read the same everywhere.
    expect(() => compileMessage("{amount, number}", "x")).toThrow(/formats a number or a date/);
    expect(() => compileMessage("{when, date, long}", "x")).toThrow(/formats a number or a date/);
  });

  it("gives the Arabic of the API's messages the parts of the English that vary, by name", () => {
    const errors = read("ar", "errors");
    for (const [english, arabic] of Object.entries(errors)) {
      const named = [...english.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const a of args(arabic)) expect(named, `${english}: {${a}}`).toContain(a);
      expect(() => compileMessage(arabic, english)).not.toThrow();
    }
  });
});

/** Values to try a message with: every plural argument through Arabic's six forms. */
function samples(message: string): Record<string, unknown>[] {
  const ast = parse(message);
  const plural = new Set<string>();
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === 6) plural.add(el.value);
      if (el.type === 5 || el.type === 6) for (const o of Object.values(el.options)) walk(o.value);
      if (el.type === 8) walk(el.children);
    }
  };
  walk(ast);
  const base: Record<string, unknown> = {};
  for (const a of argumentsOf(ast)) {
    if (a.startsWith("<")) base[a.slice(1, -1)] = (chunks: unknown[]) => `[${chunks.join("")}]`;
    else base[a] = `«${a}»`;
  }
  return [0, 1, 2, 3, 11, 100, 1002].map((n) => ({ ...base, ...Object.fromEntries([...plural].map((p) => [p, n])) }));
}

describe("the islands' message formatter", () => {
  it("formats every compiled message as intl-messageformat formats its ICU source", () => {
    let checked = 0;
    for (const l of LANGS) {
      const catalogues = [...FILES.map((ns) => read(l, ns)), ...(l === "ar" ? [read("ar", "errors")] : [])];
      for (const catalogue of catalogues) {
        for (const [key, source] of Object.entries(catalogue)) {
          const compiled = compileMessage(source, key);
          for (const values of samples(source)) {
            const ours = typeof compiled === "string" ? compiled : formatParts(compiled, locale(l), values).join("");
            const theirs = new IntlMessageFormat(source, locale(l)).format(values as Record<string, string>);
            expect({ key, values: JSON.stringify(values), text: ours }).toEqual({ key, values: JSON.stringify(values), text: Array.isArray(theirs) ? theirs.join("") : theirs });
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it("chooses =N before the plural category, and subtracts the offset", () => {
    const ast = compileMessage("{n, plural, offset:1 =0 {nobody} one {you and # other} other {you and # others}}") as MessageFormatElement[];
    expect([0, 2, 3].map((n) => formatParts(ast, "en-US", { n }).join(""))).toEqual(["nobody", "you and 1 other", "you and 2 others"]);
  });

  it("hands a tag's content to its function and keeps what it returns", () => {
    const ast = compileMessage("Hello <b>{name}</b>!") as MessageFormatElement[];
    const bold = { tag: "b" };
    expect(formatParts(ast, "en-US", { name: "Mona", b: () => bold })).toEqual(["Hello ", bold, "!"]);
  });
});

describe("Arabic counts", () => {
  it("has six plural forms in the browser's rules", () => {
    const rules = new Intl.PluralRules("ar");
    expect([0, 1, 2, 3, 11, 100].map((n) => rules.select(n))).toEqual(["zero", "one", "two", "few", "many", "other"]);
  });

  it("counts sessions and credits in their six forms", async () => {
    await loadMessages(NAMESPACES, "ar");
    const forms = ["0 جلسة", "جلسة واحدة", "جلستان", "3 جلسات", "11 جلسة", "100 جلسة"];
    expect([0, 1, 2, 3, 11, 100].map(sessions)).toEqual(forms);
    expect([0, 1, 2, 3, 11, 100].map(credits)).toEqual(forms);
    expect(t("purchase.units.sessions", { count: 2 })).toBe("جلستان");
    expect(t("admin.months", { count: 11 })).toBe("11 شهرًا");
    expect(t("admin.clients.found", { count: 3 })).toBe("تم العثور على 3 عملاء");
  });

  it("counts in English as before", () => {
    expect([0, 1, 2, 11].map(sessions)).toEqual(["0 sessions", "1 session", "2 sessions", "11 sessions"]);
    expect([1, 4].map(credits)).toEqual(["1 credit", "4 credits"]);
    expect(t("admin.clients.found", { count: 1 })).toBe("1 client found");
  });
});

describe("money and dates in both languages", () => {
  it("keeps English exactly as the spec writes it", () => {
    expect(formatMoney({ minor: 2025000, currency: "EGP" })).toBe("20,250\u00a0EGP");
    expect(formatMoney({ minor: 2025000, currency: "EGP" }, { cents: true })).toBe("20,250.00\u00a0EGP");
    expect(shortDate("2026-11-23")).toBe("Nov 23, 2026");
    expect(shortDate("2026-03-01T10:00:00Z")).toBe("Mar 01, 2026");
    expect(longDateTime("2026-12-03T13:00:00Z")).toBe("Thursday, December 3, 2026 at 3:00\u00a0PM (Cairo time)");
    expect(zoneName("Africa/Cairo")).toBe("Cairo time");
  });

  it("writes Arabic with Western digits, the Egyptian pound's Arabic symbol and Arabic month names", async () => {
    await loadMessages(NAMESPACES, "ar");
    expect(lang()).toBe("ar");
    const money = formatMoney({ minor: 2025000, currency: "EGP" });
    expect(money.replace(/[\u200e\u200f]/g, "")).toBe("20,250\u00a0ج.م.");
    expect(formatMoney({ minor: 2025050, currency: "EGP" }).replace(/[\u200e\u200f]/g, "")).toBe("20,250.50\u00a0ج.م.");
    expect(formatMoney({ minor: 2025000, currency: "EGP" }, { cents: true }).replace(/[\u200e\u200f]/g, "")).toBe("20,250.00\u00a0ج.م.");
    expect(shortDate("2026-11-23")).toBe("23 نوفمبر 2026");
    // 23:30 UTC is already the next day in Cairo.
    expect(shortDate("2026-11-23T23:30:00Z")).toBe("24 نوفمبر 2026");
    expect(longDateTime("2026-12-03T13:00:00Z")).toBe("الخميس، 3 ديسمبر 2026، الساعة 3:00\u00a0م (بتوقيت القاهرة)");
    expect(timeOfDay("2026-11-24T00:39:00Z")).toBe("2:39\u00a0ص بتوقيت القاهرة");
    expect(zoneName("America/New_York")).toBe("بتوقيت نيويورك");
    expect(zoneName("Asia/Tokyo")).toBe("بتوقيت Tokyo");
    const months = Array.from({ length: 12 }, (_, i) => shortDate(`2026-${String(i + 1).padStart(2, "0")}-01`).split(" ")[1]);
    expect(months).toEqual(["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"]);
    for (const text of [money, shortDate("2026-11-23"), longDateTime("2026-12-03T13:00:00Z"), sessions(3)]) expect(text).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
  });
});

describe("the page's language", () => {
  const doc = (lang: string) => ({ documentElement: { lang } }) as unknown as Document;
  it("is Arabic for <html lang=ar> (or ar-EG), and English otherwise", () => {
    expect(pageLang(doc("ar"))).toBe("ar");
    expect(pageLang(doc("ar-EG"))).toBe("ar");
    expect(pageLang(doc("en"))).toBe("en");
    expect(pageLang(doc(""))).toBe("en");
    expect(pageLang(doc("arz"))).toBe("en");
    expect(pageLang(undefined)).toBe("en");
  });

  it("keeps the links the islands make in it", () => {
    expect(localPath("/dashboard", "en")).toBe("/dashboard");
    expect(localPath("/dashboard", "ar")).toBe("/ar/dashboard");
    expect(localPath("/receipt?id=a%2Fb", "ar")).toBe("/ar/receipt?id=a%2Fb");
    expect(localPath("/admin#clients", "ar")).toBe("/ar/admin#clients");
    expect(localPath("/", "ar")).toBe("/ar/");
    expect(localPath("/ar/dashboard", "ar")).toBe("/ar/dashboard");
    expect(localPath("https://secure.paytabs.com/x", "ar")).toBe("https://secure.paytabs.com/x");
    expect(localPath("//cdn.example/x", "ar")).toBe("//cdn.example/x");
  });
});

describe("the API's messages on an Arabic page", () => {
  it("reads a known message in Arabic, filling in the parts that vary", async () => {
    await loadMessages(NAMESPACES, "ar");
    const said = await apiTexts("ar", "Invalid login credentials", { email: "Invalid email address", other: "Something new" });
    expect(said).toEqual({
      message: "البريد الإلكتروني أو كلمة المرور غير صحيحة",
      fields: { email: "عنوان البريد الإلكتروني غير صحيح", other: "Something new" },
    });
    expect((await apiTexts("ar", "At most 2 unused credits can be removed", {})).message).toBe("لا يمكن خصم أكثر من جلستين غير مستخدمتين");
    expect((await apiTexts("ar", "Too many attempts. Try again in 3 minutes, or reset your password.", {})).message).toBe(
      "محاولات كثيرة. يُرجى المحاولة مرة أخرى بعد 3 دقائق، أو إعادة تعيين كلمة المرور.",
    );
    // An unknown message stays as the API wrote it.
    expect((await apiTexts("ar", "A message nobody translated", {})).message).toBe("A message nobody translated");
  });

  it("leaves English as the API wrote it", async () => {
    expect(await apiTexts("en", "Invalid login credentials", { email: "Invalid email address" })).toEqual({
      message: "Invalid login credentials",
      fields: { email: "Invalid email address" },
    });
  });

  it("matches a message with parts that vary only as a whole", () => {
    const p = patternOf("At most {most} {currency} can be refunded");
    expect(p.names).toEqual(["most", "currency"]);
    expect(p.re.exec("At most 1,500.00 EGP can be refunded")?.slice(1)).toEqual(["1,500.00", "EGP"]);
    expect(p.re.test("Oh, at most 1 EGP can be refunded")).toBe(false);
    expect(translate("No such text", {}, [])).toBe("No such text");
  });
});
