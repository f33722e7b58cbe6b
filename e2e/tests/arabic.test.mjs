// The main flows in Arabic (issue 21): a visitor on /ar/ (right to left, alternates, the language
// switch), a purchase from /ar/pricing with a sign-up in Arabic, the booking, the dashboard and
// the admin, all in Arabic; the client's receipt and booking emails arrive in Arabic through the
// real SMTP server. Texts are looked up in the catalogues (islands/src/i18n, themes/default/i18n)
// by their English value, so the test follows the translation instead of copying it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ADMIN, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";

const root = resolve(import.meta.dirname, "../..");
const catalogue = (lang) =>
  Object.assign(
    {},
    ...readdirSync(join(root, "islands/src/i18n", lang))
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(root, "islands/src/i18n", lang, f), "utf8"))),
  );
const EN = catalogue("en");
const AR = catalogue("ar");
/** The Arabic text of the islands' message whose English text is `english`. */
function ar(english) {
  const keys = Object.keys(EN).filter((k) => EN[k] === english);
  assert.ok(keys.length > 0, `the catalogue has "${english}"`);
  const texts = new Set(keys.map((k) => AR[k]));
  assert.equal(texts.size, 1, `"${english}" has one Arabic text (${[...texts].join(" | ")})`);
  return [...texts][0];
}
/** The theme's Arabic text of key `path` ("pricing.buy"). */
function theme(path) {
  const yaml = readFileSync(join(root, "themes/default/i18n/ar.yaml"), "utf8");
  const key = path.split(".").at(-1);
  const m = yaml.match(new RegExp(`^\\s*${key}:\\s*"([^"]+)"`, "m"));
  assert.ok(m, `themes/default/i18n/ar.yaml has ${path}`);
  return m[1];
}
const ARABIC = /[\u0600-\u06FF]/;

const CLIENT = { name: "منى عادل", email: "mona.ar@example.com", password: "mona-arabic-2026", phone: "+20 100 765 4321" };

let product;
let browser;
let client;

before(async () => {
  product = await startProduct();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await product?.stop();
});

test("an Arabic page is right to left, names its English alternate, and the switch keeps the page", async () => {
  const v = await visitor(browser, "ar-visitor");
  const { page } = v;
  await page.goto(`${product.site}/ar/services/coaching-session`, { waitUntil: "networkidle" });
  const html = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    alternates: [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [l.hreflang, new URL(l.href).pathname]),
    canonical: new URL(document.querySelector('link[rel="canonical"]').href).pathname,
    h1: document.querySelector("h1").textContent,
  }));
  assert.equal(html.lang, "ar");
  assert.equal(html.dir, "rtl");
  assert.match(html.h1, ARABIC, "the heading is Arabic");
  const alt = Object.fromEntries(html.alternates);
  assert.equal(alt.en, "/services/coaching-session");
  assert.equal(alt.ar, "/ar/services/coaching-session");
  assert.equal(alt["x-default"], "/services/coaching-session");
  assert.equal(html.canonical, "/ar/services/coaching-session");
  await v.shot("service-ar");
  assert.deepEqual(await axe(page), [], "axe on the Arabic service page");
  await page.locator('.site-header a[hreflang="en"]').first().click();
  await page.waitForURL(`${product.site}/services/coaching-session`);
  assert.equal(await page.evaluate(() => document.documentElement.dir || "ltr"), "ltr");
  await v.context.close();
});

test("an Arabic visitor signs up and pays from /ar/pricing, in Arabic, and gets an Arabic receipt", async () => {
  client = await visitor(browser, "ar-purchase");
  const { page } = client;
  await page.goto(`${product.site}/ar/pricing`, { waitUntil: "networkidle" });
  await page.getByRole("button", { name: theme("pricing.buy") }).first().click();
  const dialog = page.getByRole("dialog", { name: ar("Complete Your Purchase") });
  await dialog.waitFor();
  await client.shot("dialog-signed-out");
  assert.deepEqual(await axe(page, '[role="dialog"]'), [], "axe on the Arabic purchase dialog");
  await dialog.getByRole("tab", { name: ar("Sign Up") }).click();
  const signUp = dialog.getByRole("tabpanel", { name: ar("Sign Up") });
  await signUp.locator('input[name="fullName"]').fill(CLIENT.name);
  await signUp.locator('input[type="email"]').fill(CLIENT.email);
  await signUp.locator('input[type="password"]').fill(CLIENT.password);
  await signUp.getByRole("button", { name: ar("Sign Up"), exact: true }).click();
  await page.getByText(ar("Account created!")).waitFor();
  const proceed = dialog.getByRole("button", { name: ar("Proceed to Payment") });
  await proceed.waitFor();
  await dialog.locator('input[type="tel"]').fill(CLIENT.phone);
  await client.shot("dialog-signed-in");
  await proceed.click();
  await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: 15_000 });
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL(/\/ar\/payment\/success\?cart_id=/, { timeout: 15_000 });
  await page.getByText(ar("Payment Successful!")).waitFor({ timeout: 15_000 });
  await client.shot("payment-success");
  assert.deepEqual(await axe(page), [], "axe on /ar/payment/success");
  const mail = await product.mail.waitFor(CLIENT.email, ARABIC);
  assert.match(mail.text ?? "", ARABIC, "the receipt email is Arabic");
  assert.match(mail.html ?? "", /dir="rtl"/, "and right to left");
  assert.deepEqual(client.problems, []);
});

test("the Arabic dashboard shows the credits and the booking, and the confirmation is Arabic", async () => {
  const { page } = client;
  await page.getByRole("link", { name: ar("Go to Dashboard") }).click();
  await page.waitForURL(`${product.site}/ar/dashboard`);
  await page.getByText(ar("Available Credits")).first().waitFor();
  await client.shot("dashboard");
  assert.deepEqual(await axe(page), [], "axe on /ar/dashboard");
  await page.getByRole("link", { name: ar("Book New Session") }).click();
  await page.waitForURL(`${product.site}/ar/book-session`);
  const frame = page.frameLocator("iframe");
  const slot = frame.locator('button[name="start"]').first();
  await slot.waitFor({ timeout: 15_000 });
  await slot.click();
  await frame.getByText(/confirmed|scheduled|booked/i).first().waitFor({ timeout: 15_000 });
  await page.goto(`${product.site}/ar/dashboard`, { waitUntil: "networkidle" });
  await page.getByText(ar("Upcoming Sessions")).first().waitFor();
  await client.shot("dashboard-booked");
  const mails = product.mail.messages.filter((m) => m.to?.text?.includes(CLIENT.email));
  await product.mail.waitFor(CLIENT.email, /جلسة|الجلسة/);
  assert.ok(mails.length >= 1);
  await client.context.close();
});

test("the admin works in Arabic at /ar/admin", async () => {
  const v = await visitor(browser, "ar-admin");
  const { page } = v;
  await page.goto(`${product.site}/ar/auth`, { waitUntil: "networkidle" });
  const panel = page.getByRole("tabpanel", { name: ar("Sign In") });
  await panel.locator('input[type="email"]').fill(ADMIN.email);
  await panel.locator('input[type="password"]').fill(ADMIN.password);
  await panel.getByRole("button", { name: ar("Sign In"), exact: true }).click();
  await page.waitForURL(`${product.site}/ar/admin`);
  await page.waitForLoadState("networkidle");
  assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
  assert.match(await page.locator("main").innerText(), ARABIC);
  assert.match(await page.locator("main").innerText(), /منى عادل|mona\.ar@example\.com/);
  await v.shot("admin");
  assert.deepEqual(await axe(page), [], "axe on /ar/admin");
  assert.deepEqual(v.problems, []);
  await v.context.close();
});
