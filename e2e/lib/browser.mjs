// Real headless Chromium (Debian's, driven by playwright-core), with what every test needs: each
// page's console errors and failed requests, a numbered screenshot per step, and axe-core.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
export const artifacts = resolve(import.meta.dirname, "../artifacts");

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    // The machine has no network beyond localhost: keep Chromium from reaching out.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A browser context (its own cookies) whose pages record problems. Requests to hosts other than
 * localhost (YouTube embeds, fonts, a partner site) cannot succeed on this machine; they are
 * aborted and not counted, since in production they load from the real services.
 */
export async function visitor(browser, folder, { mobile = false } = {}) {
  const context = await browser.newContext(
    mobile
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
      : { viewport: { width: 1366, height: 900 } },
  );
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  const problems = [];
  // Asking "who is signed in?" answers 401 for a visitor by design (the API's contract), and
  // Chromium logs every 4xx fetch as a console error: that one answer is expected.
  let expected401 = 0;
  const watch = (page) => {
    page.on("console", (m) => {
      if (m.type() === "error" && /status of 401/.test(m.text()) && expected401 > 0) {
        expected401 -= 1;
        return;
      }
      if (m.type() === "error" && !/net::ERR_FAILED|ERR_BLOCKED/.test(m.text())) {
        problems.push(`console error on ${page.url()}: ${m.text()}`);
      }
    });
    page.on("pageerror", (e) => problems.push(`uncaught on ${page.url()}: ${e.message}`));
    page.on("requestfailed", (r) => {
      if (/^https?:\/\/(127\.0\.0\.1|localhost)/.test(r.url()) && !/ERR_ABORTED/.test(r.failure()?.errorText ?? "")) {
        problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
      }
    });
    page.on("response", (r) => {
      const url = r.url();
      // A 404 answer for an unknown page is the page under test; any other 4xx/5xx of ours is a bug
      // unless the test expects it (it then clears `problems`).
      if (r.status() === 401 && r.request().method() === "GET" && new URL(url).pathname === "/api/auth/session") {
        expected401 += 1;
        return;
      }
      if (r.status() >= 400 && /^https?:\/\/(127\.0\.0\.1|localhost)/.test(url) && r.request().resourceType() !== "document") {
        problems.push(`${r.status()} for ${r.request().method()} ${url}`);
      }
    });
  };
  context.on("page", watch);
  const page = await context.newPage();
  const dir = join(artifacts, folder);
  mkdirSync(dir, { recursive: true });
  let step = 0;
  return {
    context,
    page,
    problems,
    /** Saves a full-page screenshot named after the step. */
    async shot(name, p = page) {
      step += 1;
      // PNG, though JPEG encodes a third faster: the screenshots are there to be looked at, and
      // some viewers (the agents' file viewer among them) show PNG only.
      const file = join(dir, `${String(step).padStart(2, "0")}-${name}.png`);
      // Scroll through first, so lazily loaded images (the footer's card icons) are in the picture.
      await p.evaluate(async () => {
        window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" });
        await new Promise((ok) => setTimeout(ok, 150));
        window.scrollTo({ top: 0, behavior: "instant" });
      });
      await p.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
}

/** axe-core's serious and critical violations on the page as it is now (an open dialog included). */
export async function axe(page, context = "document") {
  // Injected over the DevTools protocol: the site's CSP (rightly) refuses inline script tags.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(
    async (ctx) =>
      window.axe.run(ctx === "document" ? document : document.querySelector(ctx), {
        resultTypes: ["violations"],
      }),
    context,
  );
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}
