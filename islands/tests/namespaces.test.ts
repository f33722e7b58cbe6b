// Every text an island shows is in a catalogue it has loaded by then: the keys of the code an
// island imports statically are in `common` or the namespaces it names to mountIsland, and the
// keys of code it loads later (dialogs, rules) are in those or in the namespaces loaded with
// that code (`loadMessages([...])`). Read from the sources, as the bundler reads them.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NAMESPACES } from "../src/lib/i18n";

const src = fileURLToPath(new URL("../src/", import.meta.url));
const catalogue = (ns: string): string[] => Object.keys(JSON.parse(readFileSync(join(src, "i18n/en", `${ns}.json`), "utf8")));
const keysOf = Object.fromEntries(NAMESPACES.map((ns) => [ns, catalogue(ns)]));

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

interface Source {
  imports: string[];
  dynamic: string[];
  keys: string[];
  prefixes: string[];
  loads: string[];
}
const sources = new Map<string, Source>();
function source(file: string): Source {
  const known = sources.get(file);
  if (known) return known;
  const code = readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
  const imports = [...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+["']([^"']+)["']/gm), ...code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)]
    .map((m) => resolveImport(file, m[1] ?? ""))
    .filter((f): f is string => f !== null);
  const dynamic = [...code.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => resolveImport(file, m[1] ?? "")).filter((f): f is string => f !== null && !f.endsWith(".json"));
  const namespaces = "(?:common|auth|purchase|client|admin|adminClient)";
  const keys = [...code.matchAll(new RegExp(`["']((?:${namespaces})\\.[\\w./]+)["']`, "g"))].map((m) => m[1] ?? "");
  const prefixes = [...code.matchAll(new RegExp(`\`(${namespaces}\\.[\\w.]*)\\$\\{`, "g"))].map((m) => m[1] ?? "");
  const loads = [...code.matchAll(/loadMessages\(\[([^\]]*)\]/g)].flatMap((m) => [...(m[1] ?? "").matchAll(/"(\w+)"/g)].map((n) => n[1] ?? ""));
  const s = { imports, dynamic, keys, prefixes, loads };
  sources.set(file, s);
  return s;
}

function closure(starts: string[], stop: Set<string> = new Set()): Set<string> {
  const seen = new Set<string>();
  const todo = [...starts];
  while (todo.length) {
    const f = todo.pop() as string;
    if (seen.has(f) || stop.has(f)) continue;
    seen.add(f);
    todo.push(...source(f).imports);
  }
  return seen;
}

const islands = readdirSync(join(src, "islands")).filter((f) => f.endsWith(".tsx")).map((f) => f.slice(0, -4));

function island(name: string) {
  const entry = join(src, "islands", `${name}.tsx`);
  const declared = /mountIsland\(\w+(?:,\s*\[([^\]]*)\])?\)/.exec(readFileSync(entry, "utf8"))?.[1] ?? "";
  const eagerNs = ["common", ...[...declared.matchAll(/"(\w+)"/g)].map((m) => m[1] ?? "")];
  const eager = closure([entry]);
  const lazy = new Set<string>();
  let frontier = [...eager].flatMap((f) => source(f).dynamic);
  while (frontier.length) {
    const more = [...closure(frontier, eager)].filter((f) => !lazy.has(f));
    more.forEach((f) => lazy.add(f));
    frontier = more.flatMap((f) => source(f).dynamic);
  }
  const lazyNs = [...eager, ...lazy].flatMap((f) => source(f).loads);
  return { eager, lazy, eagerNs, lazyNs };
}

const problems = (files: Set<string>, namespaces: string[]) => {
  const allowed = new Set(namespaces.flatMap((ns) => keysOf[ns] ?? []));
  const out: string[] = [];
  for (const f of files) {
    const s = source(f);
    for (const k of s.keys) if (!allowed.has(k)) out.push(`${relative(src, f)}: ${k}`);
    for (const p of s.prefixes) if (![...allowed].some((k) => k.startsWith(p))) out.push(`${relative(src, f)}: ${p}…`);
  }
  return [...new Set(out)].sort();
};

describe("the catalogues each island loads", () => {
  for (const name of islands) {
    it(`${name} shows no text it has not loaded`, () => {
      const { eager, lazy, eagerNs, lazyNs } = island(name);
      expect(eagerNs.every((ns) => (NAMESPACES as readonly string[]).includes(ns))).toBe(true);
      expect({ name, eager: problems(eager, eagerNs) }).toEqual({ name, eager: [] });
      expect({ name, lazy: problems(lazy, [...eagerNs, ...lazyNs]) }).toEqual({ name, lazy: [] });
    });
  }

  it("has no message that no island shows", () => {
    const used = new Set<string>();
    const prefixes: string[] = [];
    for (const name of islands) {
      const { eager, lazy } = island(name);
      for (const f of [...eager, ...lazy]) {
        source(f).keys.forEach((k) => used.add(k));
        prefixes.push(...source(f).prefixes);
      }
    }
    const unused = NAMESPACES.flatMap((ns) => (keysOf[ns] ?? []).filter((k) => !used.has(k) && !prefixes.some((p) => k.startsWith(p))));
    expect(unused).toEqual([]);
  });
});
