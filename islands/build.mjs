// Builds the islands: the runtime and the page script in one build, each island in a build of
// its own (its lazy parts and React in its own chunks), minified ESM, content-hashed. Writes
// dist/manifest.json (island → file and the chunks it imports, preloaded after the first paint; and per
// language the message chunks it loads, `messages.en` / `messages.ar`) and prints a size
// report per language.
// The message catalogues (src/i18n) are compiled to FormatJS's AST as they are bundled
// (./messages.mjs): the browser never parses ICU text (src/lib/messageformat runs the AST).
// `site build` runs this; it is also `npm run build`.
import { build } from "esbuild";
import { esbuildMessages } from "./messages.mjs";
import { existsSync, readdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { basename, join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const dist = join(here, "dist");
const islandDir = join(here, "src/islands");
const islands = readdirSync(islandDir).filter((f) => f.endsWith(".tsx")).map((f) => basename(f, ".tsx"));

// The public pages' own small script (menu, dialog, carousel, forms…): no React.
const pageScript = existsSync(join(here, "src/page/site.ts"));

/** What the islands' build and the editor's share: split, minified, content-hashed ESM. */
const shared = {
  absWorkingDir: here,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  target: "es2020",
  jsx: "automatic",
  entryNames: "[name]-[hash]",
  // Arabic messages as UTF-8, not \u escapes (a third of the bytes); module scripts are always
  // decoded as UTF-8.
  charset: "utf8",
  legalComments: "none",
  metafile: true,
};

rmSync(dist, { recursive: true, force: true });
const common = {
  ...shared,
  chunkNames: "chunk-[hash]",
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [esbuildMessages()],
  logLevel: "warning",
};
// The runtime and the page script in one split build; each island in a build of its own. An
// island's page then fetches the island, one chunk of what it shares with its own lazy parts
// (React among them), and its language's messages: a handful of requests rather than the twenty
// small chunks one build split across eleven islands made (each a round trip on a phone over
// HTTP/1.1). Files whose bytes are the same (React's chunk, the message catalogues) come out
// under the same hashed name from every build, so the browser still caches them once.
const builds = await Promise.all([
  build({
    ...common,
    entryPoints: [
      { in: "src/runtime.ts", out: "runtime" },
      ...(pageScript ? [{ in: "src/page/site.ts", out: "site" }] : []),
    ],
  }),
  ...islands.map((name) => build({ ...common, entryPoints: [{ in: `src/islands/${name}.tsx`, out: name }] })),
]);
const outputs = Object.assign({}, ...builds.map((b) => b.metafile.outputs));
const fileOf = (entry) => Object.keys(outputs).find((o) => outputs[o].entryPoint === entry);
const name = (p) => basename(p);
/** Every chunk an output imports, transitively (static imports only). */
function imports(out, seen = new Set()) {
  for (const i of outputs[out].imports) {
    if (i.kind === "import-statement" && !seen.has(i.path)) {
      seen.add(i.path);
      imports(i.path, seen);
    }
  }
  return seen;
}
const gz = (p) => gzipSync(readFileSync(join(here, p))).length;
/**
 * The message chunks of one build: "lang/namespace" → output, for the chunks built from
 * src/i18n/<lang>/<ns>.json. Per build: a catalogue imports its build's own helper chunk, so
 * the same catalogue has another name in each island's build.
 */
function messageChunks(build) {
  const chunks = new Map();
  for (const [out, meta] of Object.entries(build.metafile.outputs)) {
    const m = /(?:^|\/)src\/i18n\/([a-z]{2})\/(\w+)\.json$/.exec(meta.entryPoint ?? "");
    if (m) chunks.set(`${m[1]}/${m[2]}`, out);
  }
  return chunks;
}
const islandBuilds = builds.slice(1);
const LANGS = [...new Set(islandBuilds.flatMap((b) => [...messageChunks(b).keys()].map((k) => k.split("/")[0])))].sort();
/** The namespaces an island shows at first: `mountIsland(X, ["admin", …])` (and `common`). */
function namespacesOf(island) {
  const src = readFileSync(join(islandDir, `${island}.tsx`), "utf8");
  const list = /mountIsland\(\w+(?:,\s*\[([^\]]*)\])?\)/.exec(src);
  if (!list) throw new Error(`src/islands/${island}.tsx: no mountIsland(…) call`);
  return ["common", ...(list[1] ?? "").split(",").map((s) => s.trim().replace(/^"|"$/g, "")).filter(Boolean)];
}
const manifest = { runtime: name(fileOf("src/runtime.ts")), page: null, page_imports: [], page_messages: {}, islands: {} };
if (pageScript) {
  // The page script's shared chunks are preloaded beside it, so they do not wait for it to
  // arrive before they are requested (one round trip less before the page is interactive).
  const site = fileOf("src/page/site.ts");
  const siteImports = imports(site);
  manifest.page = name(site);
  manifest.page_imports = [...siteImports].map(name);
  // Per language, the page script's texts (src/i18n/<lang>/page.json; English is bundled): it
  // loads them as it starts, so that language's pages preload them rather than fetch them a
  // round trip after the script.
  for (const [key, out] of messageChunks(builds[0])) {
    const [lang, ns] = key.split("/");
    if (ns !== "page") continue;
    manifest.page_messages[lang] = [out, ...imports(out)].filter((f) => f !== site && !siteImports.has(f)).map(name);
  }
}
const report = [];
islands.forEach((island, i) => {
  const out = fileOf(`src/islands/${island}.tsx`);
  const deps = [...imports(out)];
  const files = [out, ...deps];
  // The message chunks it loads on a page of each language, from its own build, with what
  // they import that the island does not (preloaded together after the first paint).
  const own = messageChunks(islandBuilds[i]);
  const messages = Object.fromEntries(
    LANGS.map((l) => {
      const chunks = new Set();
      for (const ns of namespacesOf(island)) {
        const chunk = own.get(`${l}/${ns}`);
        if (!chunk) throw new Error(`${island}: no ${l} messages for namespace ${ns} (src/i18n/${l}/${ns}.json)`);
        chunks.add(chunk);
        for (const dep of imports(chunk)) if (!files.includes(dep)) chunks.add(dep);
      }
      return [l, [...chunks]];
    }),
  );
  manifest.islands[island] = {
    file: name(out),
    imports: deps.map(name),
    messages: Object.fromEntries(Object.entries(messages).map(([l, chunks]) => [l, chunks.map(name)])),
  };
  const min = files.reduce((n, f) => n + outputs[f].bytes, 0);
  const zipped = files.reduce((n, f) => n + gz(f), 0);
  const perLang = Object.fromEntries(
    Object.entries(messages).map(([l, chunks]) => [l, [chunks.reduce((n, f) => n + outputs[f].bytes, min), chunks.reduce((n, f) => n + gz(f), zipped)]]),
  );
  report.push([island, perLang]);
});
// The coach's editor (/admin/content, issue 25): Decap CMS, built apart from the islands (its
// own React, its own chunks), so that adding it changes no other page's JS. Registered as the
// island `ContentEditor`; no catalogue chunks (its texts are bundled, both languages).
const editorBuild = await build({
  ...shared,
  entryPoints: [{ in: "src/editor/ContentEditor.tsx", out: "content-editor" }],
  chunkNames: "content-editor-chunk-[hash]",
  define: { "process.env.NODE_ENV": '"production"', global: "globalThis" },
  loader: { ".wasm": "file", ".woff": "file", ".woff2": "file", ".ttf": "file", ".svg": "file" },
  logLevel: "error",
});
{
  const outs = editorBuild.metafile.outputs;
  const out = Object.keys(outs).find((o) => outs[o].entryPoint === "src/editor/ContentEditor.tsx");
  const deps = [];
  for (const i of outs[out].imports) if (i.kind === "import-statement") deps.push(i.path);
  manifest.islands.ContentEditor = { file: name(out), imports: deps.map(name), messages: Object.fromEntries(LANGS.map((l) => [l, []])) };
  const files = Object.keys(outs).filter((o) => o.endsWith(".js"));
  const min = files.reduce((n, f) => n + outs[f].bytes, 0);
  const zipped = files.reduce((n, f) => n + gz(f), 0);
  report.push(["ContentEditor", Object.fromEntries(LANGS.map((l) => [l, [min, zipped]]))]);
}
writeFileSync(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2));
const kb = (n) => (n / 1024).toFixed(1).padStart(6) + " KB";
console.log(`island             ${LANGS.map((l) => `${l}: JS min    JS gzip`).join("   ")}   (with its chunks and messages)`);
for (const [island, perLang] of report) {
  console.log(`${island.padEnd(18)} ${LANGS.map((l) => `    ${kb(perLang[l][0])} ${kb(perLang[l][1])}`).join("   ")}`);
}
const runtime = fileOf("src/runtime.ts");
console.log(`${"runtime".padEnd(18)} ${kb(outputs[runtime].bytes)} ${kb(gz(runtime))}`);
if (pageScript) {
  // Content pages: the page script, its chunks, and what it may load (the forms' code on the
  // first submit; a language's texts on a page in that language), per language.
  const site = fileOf("src/page/site.ts");
  const langOf = (f) => /(?:^|\/)src\/i18n\/([a-z]{2})\//.exec(outputs[f].entryPoint ?? "")?.[1];
  const reach = (l) => {
    const seen = new Set();
    const visit = (f) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const i of outputs[f].imports) {
        const other = langOf(i.path);
        if (other === undefined || other === l) visit(i.path);
      }
    };
    visit(site);
    return [...seen];
  };
  for (const l of LANGS) {
    const all = reach(l);
    const min = all.reduce((n, f) => n + outputs[f].bytes, 0);
    const zipped = all.reduce((n, f) => n + gz(f), 0);
    console.log(`${`content page JS ${l}`.padEnd(18)} ${kb(min)} ${kb(zipped)}   (no React; with the forms' code)`);
  }
}
