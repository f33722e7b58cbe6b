// Right to left (issue 21): the Arabic pages mirror, use the Arabic
// faces from their first paint, never tear Arabic letters apart, and keep figures in order; the
// English pages still never download an Arabic face (also with the language switch in the header).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startProduct } from "../lib/product.mjs";
import { launch, visitor } from "../lib/browser.mjs";

let product;
let browser;
before(async () => {
  product = await startProduct();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await product?.stop();
});

test("an Arabic page is right to left, in the Arabic faces, and mirrored", async () => {
  for (const mobile of [false, true]) {
    const v = await visitor(browser, `rtl-${mobile ? "phone" : "desktop"}`, { mobile });
    await v.page.goto(`${product.site}/ar/`, { waitUntil: "networkidle" });
    const got = await v.page.evaluate(async () => {
      await document.fonts.ready;
      const css = (sel, prop) => (document.querySelector(sel) ? getComputedStyle(document.querySelector(sel))[prop] : null);
      const h1 = document.querySelector("h1");
      const faces = await document.fonts.load(`600 40px ${getComputedStyle(h1).fontFamily}`, h1.textContent.trim().slice(0, 30));
      return {
        dir: getComputedStyle(document.documentElement).direction,
        h1Family: css("h1", "fontFamily"),
        h1Loaded: faces.some((f) => f.family === "Brand Serif Arabic" && f.status === "loaded"),
        bodyFamily: css("body", "fontFamily"),
        eyebrowSpacing: css(".eyebrow", "letterSpacing"),
        eyebrowTransform: css(".eyebrow", "textTransform"),
        arrowScale: css(".link-arrow .icon", "scale"),
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        arabicFonts: performance.getEntriesByType("resource").filter((r) => /arabic/.test(r.name)).length,
      };
    });
    assert.equal(got.dir, "rtl");
    assert.match(got.h1Family, /^"Brand Serif Arabic"/, "headings in Noto Naskh Arabic");
    assert.ok(got.h1Loaded, "the Naskh face loaded");
    assert.match(got.bodyFamily, /^"Brand Sans Arabic"/, "text in Noto Sans Arabic");
    assert.ok(got.eyebrowSpacing === "normal" || got.eyebrowSpacing === "0px", `no letter-spacing on Arabic (${got.eyebrowSpacing})`);
    assert.equal(got.eyebrowTransform, "none");
    assert.equal(got.arrowScale, "-1 1", "arrows point the reading way");
    assert.ok(got.overflow <= 0, `no sideways scroll (${got.overflow}px)`);
    assert.ok(got.arabicFonts >= 1, "the Arabic faces are downloaded");
    assert.deepEqual(v.problems, []);
    await v.context.close();
  }
});

test("an Arabic page draws its digits and Latin names from the small Latin cuts, not the full files", async () => {
  const v = await visitor(browser, "rtl-latin-cuts");
  // The home page (figures in the serif), prices, and a phone number in direction isolates.
  for (const path of ["/ar/", "/ar/pricing", "/ar/cancellation-policy"]) {
    await v.page.goto(`${product.site}${path}`, { waitUntil: "networkidle" });
    const fonts = await v.page.evaluate(async () => {
      await document.fonts.ready;
      return performance
        .getEntriesByType("resource")
        .map((r) => new URL(r.name).pathname.split("/").pop())
        .filter((name) => name.endsWith(".woff2"))
        .map((name) => name.replace(/\.[0-9a-f]+\.woff2$/, ""));
    });
    assert.ok(fonts.includes("inter-basic-wght-normal"), `${path}: Inter's cut (${fonts})`);
    assert.deepEqual(fonts.filter((f) => /-latin-/.test(f)), [], `${path}: no full Latin face (${fonts})`);
  }
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("an English page with the language switch downloads no Arabic face", async () => {
  const v = await visitor(browser, "rtl-switch-en");
  await v.page.goto(`${product.site}/about`, { waitUntil: "networkidle" });
  const r = await v.page.evaluate(() => ({
    switchFont: getComputedStyle(document.querySelector('.site-header [lang|="ar"]')).fontFamily,
    arabic: performance.getEntriesByType("resource").some((e) => /arabic/.test(e.name)),
  }));
  assert.equal(r.arabic, false);
  assert.doesNotMatch(r.switchFont, /Brand/, "the switch stays in the device's font");
  await v.context.close();
});

test("figures with a sign keep it after the number on an Arabic page (500+, not +500)", async () => {
  const v = await visitor(browser, "rtl-figures");
  await v.page.goto(`${product.site}/ar/`, { waitUntil: "networkidle" });
  const figures = await v.page.evaluate(() =>
    [...document.querySelectorAll(".stats dd")].map((dd) => {
      const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
      const text = walker.nextNode();
      const at = (i) => {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        return range.getBoundingClientRect().left;
      };
      const value = text.textContent;
      // Where the first digit and the sign or percent after the last digit are drawn.
      return { value, signAfterDigits: at(value.length - 1) > at(0) };
    }),
  );
  assert.ok(figures.length >= 3, JSON.stringify(figures));
  for (const f of figures) assert.ok(f.signAfterDigits, `${f.value} reads left to right: ${JSON.stringify(figures)}`);
  await v.context.close();
});
