// The client's and the coach's experience (issue 13): toasts that survive the redirect of
// /auth and stay long enough to read, the dashboard's word on an unconfirmed email, every amount
// in EGP, the one right heading on /payment/success, /book-session confirming a booking the
// scheduler reports, a header that knows who is signed in, session times in the coach's zone
// with its name (in a browser set to UTC), the admin at 390 px, and island pages that load only
// what they run.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { signIn } from "../lib/portal.mjs";

const CLIENT = { name: "Karim Fouad", email: "karim.fouad@example.com", password: "karim-portal-2026" };

/** The day and hour a text names, written "December 3, 2026 at 3:00 PM" (the pages and the
 *  emails; a 24-hour "December 03, 2026 at 15:00" reads the same): "December 3 2026 15:00". */
function sameHour(text) {
  const m = text.match(/(\w+) (\d{1,2}), (\d{4}) at (\d{1,2}):(\d\d)(?:\s([AP]M))?/);
  if (!m) return null;
  let hour = Number(m[4]) % (m[6] ? 12 : 24);
  if (m[6] === "PM") hour += 12;
  return `${m[1]} ${Number(m[2])} ${m[3]} ${String(hour).padStart(2, "0")}:${m[5]}`;
}

let product;
let browser;
let client; // Karim's browser, set to UTC, signed in across the story

before(async () => {
  product = await startProduct();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await product?.stop();
});

/**
 * A browser whose clock reads UTC (times must still be the coach's), with `visitor`'s checks:
 * console errors, failed or refused requests of ours; and every URL it requested.
 */
async function utcVisitor(folder, { mobile = false } = {}) {
  // `visitor` makes the screenshot folder and its `shot`; the context is ours (zone, viewport).
  const shooter = await visitor(browser, folder, { mobile });
  await shooter.context.close();
  const context = await browser.newContext({
    ...(mobile
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true }
      : { viewport: { width: 1366, height: 900 } }),
    timezoneId: "UTC",
  });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  const problems = [];
  const requests = [];
  context.on("page", (page) => {
    page.on("console", (m) => {
      if (m.type() === "error" && !/net::ERR_FAILED|ERR_BLOCKED/.test(m.text())) problems.push(`console error on ${page.url()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`uncaught on ${page.url()}: ${e.message}`));
    page.on("request", (r) => requests.push(r.url()));
    page.on("response", (r) => {
      if (r.status() >= 400 && /^https?:\/\/(127\.0\.0\.1|localhost)/.test(r.url()) && r.request().resourceType() !== "document") {
        problems.push(`${r.status()} for ${r.request().method()} ${r.url()}`);
      }
    });
  });
  const page = await context.newPage();
  return { context, page, problems, requests, shot: (name, p = page) => shooter.shot(name, p) };
}

/** Waits for a toast with `title` and `description`, and checks it is still on screen 2 s later. */
async function toastStaysReadable(page, title, description) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).filter({ hasText: description });
  await toast.first().waitFor({ timeout: 15_000 });
  await page.waitForTimeout(2_100);
  assert.ok(await toast.first().isVisible(), `'${title}' / '${description}' is still visible after 2 s`);
  return toast.first();
}

const accountLinks = (page) => page.locator("[data-account-link]");

async function headerSays(page, label, href) {
  const links = accountLinks(page);
  assert.equal(await links.count(), 2, "the header and the mobile menu each have the account link");
  for (const link of await links.all()) {
    assert.equal((await link.textContent()).trim(), label);
    assert.equal(await link.getAttribute("href"), href);
  }
}

/** A same-origin JSON call with the page's cookies (as the islands make it). */
async function apiCall(page, method, path, data) {
  const r = await page.request.fetch(product.site + path, { method, data, headers: { Origin: product.site } });
  assert.ok(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`);
  return r.json().catch(() => null);
}

test("island pages preload only what mounts at once; the purchase dialog loads on intent", async () => {
  const v = await utcVisitor("experience-pricing");
  const { page } = v;
  await page.goto(product.site + "/pricing", { waitUntil: "networkidle" });
  // The only modulepreloads are the page script's own chunks (menu, header), none of an island's.
  const preloads = await page.$$eval('link[rel="modulepreload"]', (ls) => ls.map((l) => l.getAttribute("href")));
  const pageScript = await page.$eval('script[type="module"][src*="/site-"]', (s) => s.getAttribute("src"));
  const pageScriptText = await (await fetch(product.site + pageScript)).text();
  for (const href of preloads) {
    const file = href.split("/").pop();
    assert.ok(pageScriptText.includes(`./${file}`), `${href} is a chunk the page script imports, not an island's`);
  }
  assert.ok(!v.requests.some((u) => /PurchaseDialog-/.test(u)), "the dialog's code is not fetched before any intent");
  assert.ok(!v.requests.some((u) => u.includes("/api/auth/session")), "a signed-out visitor is not asked about a session");
  await headerSays(page, "Client Login", "/auth");

  // The first click answers at once and the dialog opens when its code has arrived.
  const buy = page.getByRole("button", { name: /Buy Now/ }).first();
  await buy.click();
  await page.getByRole("dialog", { name: "Complete Your Purchase" }).waitFor();
  assert.ok(v.requests.some((u) => /PurchaseDialog-/.test(u)));
  await page.getByText("Please sign in or create an account to complete your purchase").waitFor();
  await v.shot("pricing-dialog-on-intent");

  // /auth: described for search engines, and no console error from the signed-out check.
  await page.goto(product.site + "/auth", { waitUntil: "networkidle" });
  const description = await page.locator('meta[name="description"]').getAttribute("content");
  assert.ok(description && description.length > 50, `a meta description on /auth: ${description}`);
  await page.getByRole("tab", { name: "Sign In" }).waitFor();
  // /auth mounts its island on load: the runtime preloads its files after the first paint.
  assert.ok((await page.locator('link[rel="modulepreload"]').count()) > 0);
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("sign-up on /auth: the toast shows on the dashboard, long enough to read, with the email banner", async () => {
  client = await utcVisitor("experience-client");
  const { page } = client;
  await page.goto(product.site + "/auth", { waitUntil: "networkidle" });
  await page.getByRole("tab", { name: "Sign Up" }).click();
  const panel = page.getByRole("tabpanel", { name: "Sign Up" });
  await panel.getByLabel("Full Name").fill(CLIENT.name);
  await panel.getByLabel("Email").fill(CLIENT.email);
  await panel.getByLabel("Password").fill(CLIENT.password);
  await panel.getByRole("button", { name: "Sign Up", exact: true }).click();
  await page.waitForURL(`${product.site}/dashboard`);
  await toastStaysReadable(page, "Account created!", "Please check your email to confirm your account.");
  await client.shot("dashboard-after-sign-up");

  // What confirming is for, and a way to have the link again.
  const banner = page.getByRole("region", { name: "Please confirm your email address" });
  await banner.waitFor();
  assert.match(await banner.innerText(), /match the sessions you book/);
  await product.mail.waitFor(CLIENT.email, /Confirm your email/);
  await banner.getByRole("button", { name: "Resend the confirmation email" }).click();
  await banner.getByText("A new confirmation link is on its way").waitFor();
  const deadline = Date.now() + 20_000;
  while (product.mail.messages.filter((m) => m.to?.text.includes(CLIENT.email) && /Confirm your email/.test(m.subject)).length < 2) {
    assert.ok(Date.now() < deadline, "a second confirmation email arrives");
    await page.waitForTimeout(250);
  }
  await headerSays(page, "Dashboard", "/dashboard");
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(client.problems, []);
});

test("a purchase: /payment/success has only the right heading, and every amount is in EGP", async () => {
  const { page } = client;
  await page.goto(product.site + "/pricing", { waitUntil: "networkidle" });
  await headerSays(page, "Dashboard", "/dashboard");
  const card = page.locator("li").filter({ has: page.getByRole("heading", { name: "Momentum Package" }) });
  await card.getByRole("button", { name: /Buy Now/ }).hover();
  await card.getByRole("button", { name: /Buy Now/ }).click();
  const dialog = page.getByRole("dialog", { name: "Complete Your Purchase" });
  await dialog.getByLabel("Phone Number").fill("+20 100 765 4321");
  await dialog.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Approve" }).click({ timeout: 15_000 });
  await page.waitForURL(/\/payment\/success\?cart_id=/, { timeout: 15_000 });
  await page.getByRole("heading", { level: 1, name: "Payment Successful!" }).waitFor({ timeout: 15_000 });
  assert.equal(await page.getByText("Confirming Your Payment").count(), 0, "the shell's heading gave way");
  assert.equal(await page.getByRole("heading", { name: "Payment Successful!" }).count(), 1);
  assert.match(await page.locator("main").innerText(), /20,250\sEGP/);
  await client.shot("payment-success");

  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  const history = page.locator("section").filter({ has: page.getByRole("heading", { name: "Payment History" }) });
  const show = history.getByLabel("Show payment history");
  if (await show.count()) await show.check();
  await history.getByText(/20,250\sEGP/).waitFor();
  assert.doesNotMatch(await page.locator("main").innerText(), /\$/, "no dollar sign anywhere on the dashboard");
  await client.shot("dashboard-payment-history");
  assert.deepEqual(client.problems, []);
});

test("/book-session confirms a booking the scheduler reports, without a reload", async () => {
  const { page } = client;
  await page.goto(product.site + "/book-session", { waitUntil: "networkidle" });
  const credits = page.locator(".client-book-credits__value");
  assert.equal(await credits.innerText(), "5");
  const frame = page.frameLocator('iframe[title="Book a session"]');
  await frame.locator('button[name="start"]').first().click({ timeout: 15_000 });
  await page.getByText("Your booking is being confirmed").waitFor({ timeout: 10_000 });
  await client.shot("book-session-confirming");
  await page.getByText("Your session is booked and 1 credit was used. You have 4 credits left.").waitFor({ timeout: 40_000 });
  assert.equal(await credits.innerText(), "4", "the credits shown are the API's, after the webhook");
  await client.shot("book-session-confirmed");

  // A message from another origin is not the scheduler's word.
  const forged = await page.evaluate(() => {
    window.postMessage({ event: "calendly.event_scheduled", payload: {} }, "*");
    return new Promise((ok) => setTimeout(() => ok(document.querySelector(".client-book-status")?.textContent ?? ""), 500));
  });
  assert.match(forged, /Your session is booked/, "a same-page message changes nothing");
  assert.deepEqual(client.problems, []);
});

test("session times are the coach's, with the zone's name, on the dashboard, the admin pages and in emails", async () => {
  // In a browser set to UTC the session booked above reads in Cairo time, as the email says it.
  const { page } = client;
  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  const when = await page.locator(".client-session time").first().innerText();
  // Written as a person would: "Thursday, December 3, 2026 at 3:00 PM (Cairo time)".
  assert.match(when, /^\w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d\d\s[AP]M \(Cairo time\)$/, when);
  const mail = await product.mail.waitFor(CLIENT.email, /Session confirmed/);
  assert.equal(sameHour(mail.subject), sameHour(when), `the email names the same day and hour as "${when}": ${mail.subject}`);
  await client.shot("dashboard-times-with-zone");

  // A phone booking at 10:00 Cairo time shows as 10:00 AM (Cairo time) on the admin's pages.
  const admin = await utcVisitor("experience-admin-times");
  await admin.page.goto(product.site + "/auth", { waitUntil: "networkidle" });
  await signIn(admin.page, ADMIN);
  await admin.page.waitForURL(`${product.site}/admin`);
  const clients = await apiCall(admin.page, "GET", "/api/admin/clients");
  const karim = clients.find((c) => c.email === CLIENT.email);
  const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await apiCall(admin.page, "POST", "/api/admin/bookings", { clientId: karim.user_id, sessionDate: day, sessionTime: "10:00", status: "confirmed" });
  await admin.page.reload({ waitUntil: "networkidle" });
  await admin.page.getByRole("tab", { name: "Sessions Management" }).click();
  const table = admin.page.getByRole("region", { name: "Sessions table" });
  await table.getByText(/at 10:00\sAM \(Cairo time\)/).first().waitFor();
  await admin.shot("admin-times-with-zone");
  await admin.context.close();
});

test("the header, sign-in toast and admin at 390 px: tabs whole, tables as cards, toasts clear of the header", async () => {
  const v = await utcVisitor("experience-admin-390", { mobile: true });
  const { page } = v;
  await page.goto(product.site + "/auth", { waitUntil: "networkidle" });
  await signIn(page, ADMIN);
  await page.waitForURL(`${product.site}/admin`);
  const toast = await toastStaysReadable(page, "Welcome back!", "You have successfully signed in.");
  const toastBox = await toast.boundingBox();
  const header = await page.locator(".site-header").boundingBox();
  assert.ok(toastBox.y >= header.y + header.height, "the toast does not cover the header and its Book Discovery Call button");
  await headerSays(page, "Admin", "/admin");
  await v.shot("admin-390-overview");

  const fits = () =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > width) out.push(`page is ${document.documentElement.scrollWidth}px wide`);
      for (const t of document.querySelectorAll('[role="tab"]')) {
        const r = t.getBoundingClientRect();
        if (t.scrollWidth > t.clientWidth + 1 || r.left < 0 || r.right > width) out.push(`tab "${t.textContent}" is cut`);
      }
      for (const cell of document.querySelectorAll(".data-table tbody td, .data-table tbody th")) {
        const r = cell.getBoundingClientRect();
        if (r.width > 0 && (r.left < 0 || r.right > width)) out.push(`cell "${cell.textContent.slice(0, 30)}" is off-screen`);
      }
      return out;
    });
  for (const [tab, region] of [
    ["Client Management", "Clients table"],
    ["Booking Management", null],
    ["Sessions Management", "Sessions table"],
    ["Add Payment", null],
  ]) {
    await page.getByRole("tab", { name: tab }).click();
    if (region) {
      const table = page.getByRole("region", { name: region });
      // The first row of data (not the loading line), once its cells are labelled: the labels
      // are copied from the header on the next frame after the rows render.
      const row = table.locator("tbody tr").filter({ hasNot: page.locator(".admin-table__loading") }).first();
      await row.locator('td[data-label]:not([data-label=""])').first().waitFor();
      // Each cell says which column it is.
      const labels = await row.locator("td").evaluateAll((cells) => cells.map((c) => getComputedStyle(c, "::before").content));
      assert.ok(labels.some((l) => l.length > 2 && l !== "none"), `cards name their columns: ${labels}`);
    }
    await page.waitForTimeout(200);
    assert.deepEqual(await fits(), [], `${tab} at 390 px`);
    await v.shot(`admin-390-${tab.toLowerCase().replace(/ /g, "-")}`);
  }
  assert.deepEqual(await axe(page), []);

  // Signing out clears the header's hint.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.waitForURL(`${product.site}/`);
  await headerSays(page, "Client Login", "/auth");
  assert.deepEqual(v.problems, []);
  await v.context.close();
});
