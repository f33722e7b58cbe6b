// The brand as a visitor's browser gets it: the self-hosted fonts preloaded and used (Latin and
// the Arabic companion on the legal pages), responsive images with srcset, sizes and intrinsic
// size on every page that shows one (the hero eager and preloaded, the rest lazy), and no page
// wider than a 390 px phone.
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

async function contentRoutes() {
  const xml = await (await fetch(`${product.site}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  assert.ok(paths.length >= 20, `the sitemap lists the public pages (${paths.length})`);
  for (const p of ["/auth", "/payment/failed", "/payment/success", "/dashboard"]) if (!paths.includes(p)) paths.push(p);
  return paths;
}

/** The rendering families of the first element matching `selector`, after fonts settle. */
async function fontsUsedBy(page, selector) {
  return page.evaluate(async (sel) => {
    await document.fonts.ready;
    const el = document.querySelector(sel);
    const style = getComputedStyle(el);
    const faces = await document.fonts.load(`${style.fontWeight} 20px ${style.fontFamily}`, el.textContent.trim().slice(0, 40));
    // The faces of the element's first family that cover its text, and whether they loaded.
    const first = style.fontFamily.split(",")[0].replaceAll('"', "").trim();
    // A face is named by the script its range covers: "latin" with A, "arabic" with alef (each
    // range is the file's own characters; an Arabic face also covers the space between words).
    const covers = (f, c) =>
      f.unicodeRange.split(",").some((r) => {
        const [lo, hi = lo] = r.trim().slice(2).split("-").map((h) => parseInt(h, 16));
        return lo <= c && c <= hi;
      });
    const script = (f) => (covers(f, 0x627) ? "arabic" : covers(f, 0x41) ? "latin" : f.unicodeRange);
    return faces.filter((f) => f.family === first).map((f) => `${f.family}|${script(f)}|${f.status}`);
  }, selector);
}

test("the heading and text faces are preloaded, swap in and cover Latin and Arabic", async () => {
  const v = await visitor(browser, "brand-fonts");
  await v.page.goto(`${product.site}/about`, { waitUntil: "networkidle" });
  const preloads = await v.page.$$eval('link[rel="preload"][as="font"]', (ls) =>
    ls.map((l) => ({ href: l.getAttribute("href"), type: l.type, cors: l.hasAttribute("crossorigin") })),
  );
  assert.equal(preloads.length, 2, "both Latin faces are preloaded, the Arabic ones are not");
  for (const p of preloads) {
    assert.match(p.href, /^\/assets\/fonts\/.+\.woff2$/, "self-hosted woff2");
    assert.ok(p.type === "font/woff2" && p.cors, "a preload the font request can reuse");
  }
  const heading = await fontsUsedBy(v.page, "h1");
  assert.deepEqual(heading, ["Brand Serif|latin|loaded"], "the heading is set in the serif (Playfair Display)");
  const text = await fontsUsedBy(v.page, "main p:not(.eyebrow)");
  assert.deepEqual(text, ["Brand Sans|latin|loaded"], "body text is set in the sans (Inter)");
  const swaps = await v.page.evaluate(() => [...document.fonts].filter((f) => f.family.startsWith("Brand ") && !f.family.endsWith("Fallback")).map((f) => f.display));
  assert.ok(swaps.length >= 4 && swaps.every((d) => d === "swap"), `font-display: swap on every face (${swaps})`);

  // An English page never downloads the Arabic faces; the Arabic legal text uses them.
  const arabicRequested = await v.page.evaluate(() =>
    performance.getEntriesByType("resource").some((r) => /arabic/.test(r.name)),
  );
  assert.equal(arabicRequested, false, "no Arabic font on an English page");
  await v.page.goto(`${product.site}/terms`, { waitUntil: "networkidle" });
  await v.page.waitForSelector("html.fonts-arabic", { state: "attached" });
  const arabic = await fontsUsedBy(v.page, 'section[lang="ar"] p');
  assert.ok(arabic.some((f) => f === "Brand Sans Arabic|arabic|loaded"), `Arabic text uses its companion face (${arabic})`);
  const arabicHeading = await fontsUsedBy(v.page, 'section[lang="ar"] h2');
  assert.ok(arabicHeading.some((f) => f === "Brand Serif Arabic|arabic|loaded"), `the Arabic heading uses the serif's companion (${arabicHeading})`);
  // The Arabic version sits below the English one: its fonts wait until the page has painted.
  const late = await v.page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
    const fonts = performance.getEntriesByType("resource").filter((r) => /arabic/.test(r.name));
    return { fcp, starts: fonts.map((r) => r.startTime) };
  });
  assert.ok(late.fcp > 0 && late.starts.length === 2, `both Arabic faces downloaded (${JSON.stringify(late)})`);
  assert.ok(late.starts.every((s) => s > late.fcp), `the Arabic faces start after the first paint (${JSON.stringify(late)})`);
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("every image has intrinsic size; photos are responsive; the hero is eager and preloaded", async () => {
  const v = await visitor(browser, "brand-images");
  let photos = 0;
  for (const path of await contentRoutes()) {
    await v.page.goto(product.site + path, { waitUntil: "networkidle" });
    const imgs = await v.page.$$eval("img", (all) =>
      all.map((i) => ({
        src: i.getAttribute("src"),
        srcset: i.getAttribute("srcset"),
        sizes: i.getAttribute("sizes"),
        width: i.getAttribute("width"),
        height: i.getAttribute("height"),
        loading: i.getAttribute("loading"),
        priority: i.getAttribute("fetchpriority"),
      })),
    );
    for (const img of imgs) {
      if (img.src.startsWith("https://")) continue; // YouTube posters, served by YouTube
      assert.ok(img.width && img.height, `${path}: ${img.src} has width and height`);
      if (/\.svg$/.test(img.src)) continue; // vector art scales by itself
      photos += 1;
      assert.ok(img.srcset && img.sizes, `${path}: ${img.src} has srcset and sizes`);
      const widths = img.srcset.split(",").map((c) => Number(c.trim().split(" ")[1].replace("w", "")));
      assert.ok(widths.length >= 3 && widths.includes(320), `${path}: several widths (${widths})`);
      assert.ok(img.srcset.split(",").every((c) => /\.webp /.test(c)), `${path}: WebP candidates`);
      assert.ok(img.loading === "lazy" || img.priority === "high", `${path}: ${img.src} is lazy unless it is the hero`);
    }
  }
  assert.ok(photos >= 10, `the portrait, certificates and event photos are checked (${photos})`);

  await v.page.goto(`${product.site}/about`, { waitUntil: "networkidle" });
  const hero = await v.page.$eval(".about-hero img", (i) => ({
    loading: i.loading,
    priority: i.getAttribute("fetchpriority"),
    current: i.currentSrc,
    naturalWidth: i.naturalWidth,
  }));
  assert.equal(hero.loading, "eager");
  assert.equal(hero.priority, "high");
  assert.match(hero.current, /\.webp$/, "the browser picked a WebP candidate");
  assert.ok(hero.naturalWidth <= 480, `a 1x desktop gets a copy near its 416 px slot, not the original (${hero.naturalWidth})`);
  const preload = await v.page.$eval('link[rel="preload"][as="image"]', (l) => l.getAttribute("imagesrcset"));
  assert.ok(preload.includes(".webp 320w"), "the portrait is preloaded from <head> with its candidates");
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("no content page is wider than a 390 px phone", async () => {
  const v = await visitor(browser, "brand-phone", { mobile: true });
  const wide = [];
  for (const path of await contentRoutes()) {
    await v.page.goto(product.site + path, { waitUntil: "networkidle" });
    const overflow = await v.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) wide.push(`${path} (+${overflow}px)`);
  }
  assert.deepEqual(wide, [], "pages that scroll sideways at 390 px");
  await v.context.close();
});

test("an island page does not move as its island renders (no layout shift on a phone)", async () => {
  const v = await visitor(browser, "brand-shift", { mobile: true });
  // A phone on a slow network: the page paints with its loading state well before the
  // island's code arrives.
  await v.context.route(/\/assets\/islands\/(?!site-)/, async (route) => {
    await new Promise((ok) => setTimeout(ok, 700));
    await route.continue();
  });
  for (const path of ["/auth", "/payment/success"]) {
    // Every layout shift from the first paint on, as Chromium reports it to the page.
    await v.page.addInitScript(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await v.page.goto(product.site + path, { waitUntil: "networkidle" });
    await v.page.locator(".island--live").first().waitFor();
    await v.page.waitForTimeout(300);
    const shift = await v.page.evaluate(() => window.__shift);
    assert.ok(shift < 0.01, `${path}: cumulative layout shift ${shift.toFixed(3)} as the island rendered`);
  }
  await v.context.close();
});
