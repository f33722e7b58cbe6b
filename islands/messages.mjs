// The islands' message catalogues (src/i18n/<lang>/<namespace>.json: ICU MessageFormat texts,
// one file per language and namespace) are compiled when they are bundled: each message becomes
// FormatJS's AST, or stays a plain string when it has no argument, so the browser gets
// intl-messageformat without its parser (build.mjs aliases the parser away). build.mjs uses the
// esbuild plugin; vitest.config.mjs the Vite one, so the tests format exactly what ships.
import { readFile } from "node:fs/promises";
import { parse } from "@formatjs/icu-messageformat-parser";

const CATALOGUE = /[\\/]src[\\/]i18n[\\/][a-z]{2}[\\/][\w-]+\.json$/;

/** One message: a string when it is plain text (apostrophe escapes resolved), else its AST. */
export function compileMessage(message, where = "") {
  let ast;
  try {
    ast = parse(message, { shouldParseSkeletons: false, requiresOtherClause: true });
  } catch (e) {
    throw new Error(`${where}: not a valid ICU message (${e.message}): ${message}`);
  }
  const refused = firstOf(ast, (el) => el.type >= 2 && el.type <= 4);
  if (refused) throw new Error(`${where}: {${refused.value}, …} formats a number or a date in the message; pass it written (lib/format) as a plain {${refused.value}}`);
  if (ast.length === 0) return "";
  if (ast.every((el) => el.type === 0)) return ast.map((el) => el.value).join("");
  return compact(ast);
}

function firstOf(elements, test) {
  for (const el of elements) {
    if (test(el)) return el;
    for (const option of Object.values(el.options ?? {})) {
      const found = firstOf(option.value, test);
      if (found) return found;
    }
    if (Array.isArray(el.children)) {
      const found = firstOf(el.children, test);
      if (found) return found;
    }
  }
  return null;
}

/** Leaves out what intl-messageformat takes as the default anyway (offset 0, cardinal plurals). */
function compact(elements) {
  for (const el of elements) {
    if (el.offset === 0) delete el.offset;
    if (el.pluralType === "cardinal") delete el.pluralType;
    for (const option of Object.values(el.options ?? {})) compact(option.value);
    if (Array.isArray(el.children)) compact(el.children);
  }
  return elements;
}

/** A catalogue's JSON text → the compiled catalogue's JSON text. */
export function compileCatalogue(json, file = "catalogue") {
  const messages = JSON.parse(json);
  const out = {};
  for (const [key, message] of Object.entries(messages)) {
    if (typeof message !== "string") throw new Error(`${file}: ${key} is not a string`);
    out[key] = compileMessage(message, `${file}: ${key}`);
  }
  return JSON.stringify(out);
}

export function esbuildMessages() {
  return {
    name: "icu-messages",
    setup(build) {
      build.onLoad({ filter: CATALOGUE }, async (args) => ({
        contents: compileCatalogue(await readFile(args.path, "utf8"), args.path),
        loader: "json",
      }));
    },
  };
}

export function viteMessages() {
  return {
    name: "icu-messages",
    enforce: "pre",
    transform(code, id) {
      // Vite's own JSON plugin then turns the compiled JSON into a module.
      return CATALOGUE.test(id.split("?")[0]) ? { code: compileCatalogue(code, id), map: null } : null;
    },
  };
}
