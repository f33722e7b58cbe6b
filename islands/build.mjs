// Builds the islands: one ESM entry per island plus the runtime, code-split (React and the
// libraries land in shared chunks), minified, content-hashed. Writes dist/manifest.json
// (island → file and the chunks it imports, for modulepreload) and prints a size report.
// `site build` runs this; it is also `npm run build`.
import { build } from "esbuild";
import { existsSync, readdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { basename, join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const dist = join(here, "dist");
const islandDir = join(here, "src/islands");
const islands = readdirSync(islandDir).filter((f) => f.endsWith(".tsx")).map((f) => basename(f, ".tsx"));

// The public pages' own small script (menu, dialog, carousel, forms…): no React.
const pageScript = existsSync(join(here, "src/page/site.ts"));

rmSync(dist, { recursive: true, force: true });
const result = await build({
  absWorkingDir: here,
  entryPoints: [
    { in: "src/runtime.ts", out: "runtime" },
    ...(pageScript ? [{ in: "src/page/site.ts", out: "site" }] : []),
    ...islands.map((name) => ({ in: `src/islands/${name}.tsx`, out: name })),
  ],
  outdir: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  target: "es2020",
  jsx: "automatic",
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

const outputs = result.metafile.outputs;
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
const manifest = { runtime: name(fileOf("src/runtime.ts")), page: null, page_imports: [], islands: {} };
if (pageScript) {
  // The page script's shared chunks are preloaded beside it, so they do not wait for it to
  // arrive before they are requested (one round trip less before the page is interactive).
  const site = fileOf("src/page/site.ts");
  manifest.page = name(site);
  manifest.page_imports = [...imports(site)].map(name);
}
const report = [];
for (const island of islands) {
  const out = fileOf(`src/islands/${island}.tsx`);
  const deps = [...imports(out)];
  manifest.islands[island] = { file: name(out), imports: deps.map(name) };
  const files = [out, ...deps];
  const min = files.reduce((n, f) => n + outputs[f].bytes, 0);
  const zipped = files.reduce((n, f) => n + gz(f), 0);
  report.push([island, min, zipped]);
}
writeFileSync(join(dist, "manifest.json"), JSON.stringify(manifest, null, 2));
const kb = (n) => (n / 1024).toFixed(1).padStart(6) + " KB";
console.log("island              JS min    JS gzip   (with the chunks it imports)");
for (const [island, min, zipped] of report) console.log(`${island.padEnd(18)} ${kb(min)} ${kb(zipped)}`);
const runtime = fileOf("src/runtime.ts");
console.log(`${"runtime".padEnd(18)} ${kb(outputs[runtime].bytes)} ${kb(gz(runtime))}`);
if (pageScript) {
  // Content pages: the page script and everything it may import (the forms chunk on submit).
  const site = fileOf("src/page/site.ts");
  const all = [site, ...outputs[site].imports.map((i) => i.path)];
  const min = all.reduce((n, f) => n + outputs[f].bytes, 0);
  const zipped = all.reduce((n, f) => n + gz(f), 0);
  console.log(`${"content page JS".padEnd(18)} ${kb(min)} ${kb(zipped)}   (no React)`);
}
