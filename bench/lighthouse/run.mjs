// One Lighthouse run (mobile, default simulated throttling) of one page, signed in when
// cookies are given. Lighthouse's CLI can send a Cookie header (--extra-headers) but that never
// reaches the browser's cookie jar, so the pages' own script saw no sign-in hint and the portal
// pages measured their redirect to /auth instead of themselves. Here the cookies are set in the
// browser first and Lighthouse is told to keep them (disableStorageReset).
//
//   node bench/lighthouse/run.mjs URL OUT.json ["name=value; name2=value2"]
import fs from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const [url, out, cookieHeader = ""] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  if (cookieHeader) {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const { origin } = new URL(url);
    const cookies = cookieHeader.split(/;\s*/).filter(Boolean).map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: origin, httpOnly: pair.startsWith("session="), sameSite: "Lax" };
    });
    await page.setCookie(...cookies);
    await page.close();
    browser.disconnect();
  }
  const result = await lighthouse(url, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    disableStorageReset: Boolean(cookieHeader),
    ...(process.env.LH_BLOCK ? { blockedUrlPatterns: process.env.LH_BLOCK.split(" ") } : {}),
  });
  fs.writeFileSync(out, result.report);
} finally {
  await chrome.kill();
}
