// A visitor on the public site: every published route (from the sitemap) loads with no console
// errors, no failed requests and no serious accessibility problems; the discovery call modal;
// the newsletter's double opt-in through a real SMTP server; a contact message.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";

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

/** Every page of the sitemap, on the local server, plus the routes the sitemap leaves out. */
async function publicRoutes() {
  const xml = await (await fetch(`${product.site}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  assert.ok(paths.length >= 20, `the sitemap lists the public pages (${paths.length})`);
  for (const p of ["/auth", "/payment/failed"]) if (!paths.includes(p)) paths.push(p);
  return paths;
}

test("every public route loads cleanly and passes axe, on desktop and phone", async () => {
  const routes = await publicRoutes();
  for (const mobile of [false, true]) {
    const v = await visitor(browser, mobile ? "public-phone" : "public-desktop", { mobile });
    const failures = [];
    for (const path of routes) {
      const response = await v.page.goto(product.site + path, { waitUntil: "networkidle" });
      assert.equal(response.status(), 200, `${path} answers 200`);
      assert.ok((await v.page.locator("h1").count()) >= 1, `${path} has a heading`);
      for (const problem of v.problems.splice(0)) failures.push(problem);
      for (const violation of await axe(v.page)) failures.push(`${path}: ${violation}`);
      await v.shot(path === "/" ? "home" : path.slice(1).replaceAll("/", "_"));
    }
    await v.context.close();
    assert.deepEqual(failures, [], `no problems (${mobile ? "phone" : "desktop"})`);
  }
});

test("an unknown path shows the 404 page with a way home", async () => {
  const v = await visitor(browser, "not-found");
  const response = await v.page.goto(`${product.site}/no-such-page`);
  assert.equal(response.status(), 404);
  await v.page.getByText("Oops! Page not found").waitFor();
  await v.page.getByRole("link", { name: "Return to Home" }).click();
  await v.page.waitForURL(`${product.site}/`);
  await v.shot("back-home");
  await v.context.close();
});

test("the discovery call modal opens, keeps focus, passes axe and closes with Escape", async () => {
  const v = await visitor(browser, "discovery-call");
  const { page } = v;
  await page.goto(product.site + "/", { waitUntil: "networkidle" });
  await page.locator(".site-header").getByRole("button", { name: "Book Discovery Call" }).click();
  const dialog = page.getByRole("dialog", { name: "Book a Discovery Call" });
  await dialog.waitFor();
  await dialog.getByText("Opens in a new window for secure booking").waitFor();
  assert.match(await dialog.innerText(), /A 15-20 minute strategic conversation/);
  assert.equal(
    await dialog.getByRole("link", { name: /Schedule Your Call/ }).getAttribute("target"),
    "_blank",
    "the scheduler opens in a new window",
  );
  await v.shot("modal-open");
  assert.deepEqual(await axe(page, "#discovery-call-dialog"), []);
  for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
  assert.ok(
    await page.evaluate(() => document.getElementById("discovery-call-dialog").contains(document.activeElement)),
    "Tab stays inside the modal",
  );
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("the mobile menu opens, links, and offers the discovery call", async () => {
  const v = await visitor(browser, "mobile-menu", { mobile: true });
  const { page } = v;
  await page.goto(product.site + "/", { waitUntil: "networkidle" });
  const toggle = page.getByRole("button", { name: "Menu" });
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  const menu = page.getByRole("navigation", { name: "Mobile" });
  await menu.waitFor();
  await v.shot("menu-open");
  await menu.getByRole("link", { name: "About" }).click();
  await page.waitForURL(`${product.site}/about`);
  assert.equal(await page.getByRole("navigation", { name: "Mobile" }).isVisible(), false);
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("a visitor subscribes to the newsletter and confirms from the email", async () => {
  const v = await visitor(browser, "newsletter");
  const { page } = v;
  await page.goto(product.site + "/resources", { waitUntil: "networkidle" });
  const form = page.locator("form[data-newsletter-form]");
  // The spec's validation first: an empty address, then a malformed one.
  await form.getByRole("button", { name: "Subscribe" }).click();
  await form.getByText("Email address is required to subscribe.").waitFor();
  await form.getByLabel("Email address").fill("not-an-email");
  await form.evaluate((f) => f.requestSubmit());
  await form.getByText("Please enter a valid email address.").waitFor();
  await form.getByLabel("Email address").fill("layla.hassan@example.com");
  await form.getByRole("button", { name: "Subscribe" }).click();
  await form.getByText("Thank you for subscribing to our newsletter.").waitFor();
  assert.match(await form.innerText(), /Successfully subscribed!/);
  await v.shot("subscribed");

  const mail = await product.mail.waitFor("layla.hassan@example.com", /confirm your subscription/i);
  const link = (mail.text ?? "").match(/https?:\/\/\S+\/newsletter\/confirm\?token=[\w-]+/)?.[0];
  assert.ok(link, `the email carries a confirmation link:\n${mail.text}`);
  assert.ok(link.startsWith(product.site), "the link leads to this site");
  await page.goto(link, { waitUntil: "networkidle" });
  await page.getByRole("button", { name: /confirm/i }).click();
  await page.getByText("You're subscribed!").waitFor();
  await v.shot("confirmed");
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("a visitor sends a contact message and the coach receives it", async () => {
  const v = await visitor(browser, "contact");
  const { page } = v;
  await page.goto(product.site + "/contact", { waitUntil: "networkidle" });
  const form = page.locator("form[data-contact-form]");
  await form.getByRole("button", { name: "Send Message" }).click();
  await form.getByText("Please fill in all required fields.").waitFor();
  await form.locator("#contact-name").fill("Omar Farouk");
  await form.locator("#contact-email").fill("omar.farouk@example.com");
  await form.locator("#contact-company").fill("Nile Logistics");
  await form.locator("#contact-message").fill("We are looking for coaching for our new leadership team.");
  await form.getByRole("button", { name: "Send Message" }).click();
  await form
    .getByText("Your message has been sent successfully. I'll respond within 1-2 business days.")
    .waitFor();
  assert.equal(await form.locator("#contact-name").inputValue(), "", "the form resets after success");
  await v.shot("sent");
  const toCoach = await product.mail.waitFor("", /from Omar Farouk/);
  assert.match(toCoach.text ?? "", /new leadership team/);
  assert.equal(toCoach.replyTo?.value[0]?.address, "omar.farouk@example.com");
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("the events photo gallery wraps at both ends, follows the arrow keys and closes with Escape", async () => {
  const v = await visitor(browser, "events-gallery");
  const { page } = v;
  await page.goto(product.site + "/events", { waitUntil: "networkidle" });
  await page.locator("[data-gallery-open]").first().click();
  const gallery = page.locator("dialog[data-gallery][open]");
  await gallery.waitFor();
  const count = gallery.locator("[data-gallery-count]");
  const total = (await count.innerText()).split("/")[1].trim();
  assert.ok(Number(total) >= 5, "the past event has 5+ photos");
  assert.equal(await count.innerText(), `1 / ${total}`);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await count.innerText(), `${total} / ${total}`, "back from the first wraps to the last");
  await page.keyboard.press("ArrowRight");
  assert.equal(await count.innerText(), `1 / ${total}`, "on from the last wraps to the first");
  await gallery.getByRole("button", { name: "Next photo" }).click();
  assert.equal(await count.innerText(), `2 / ${total}`);
  await v.shot("gallery-open");
  assert.deepEqual(await axe(page, "dialog[data-gallery][open]"), []);
  await page.keyboard.press("Escape");
  await gallery.waitFor({ state: "hidden" }); // no open gallery is left: Escape closed it
  assert.deepEqual(v.problems, []);
  await v.context.close();
});

test("an edited Markdown file shows in the open browser without a manual reload", async (t) => {
  // A product on a copy of the project: the files running beside this one watch the real one.
  const own = await startProduct({ ownProject: true });
  try {
    const slug = "executive-presence-is-not-charisma";
    const file = join(own.root, `content/blog/${slug}.md`);
    const original = readFileSync(file, "utf8");
    const v = await visitor(browser, "live-reload");
    const { page } = v;
    // Saved the moment the page arrives, before its script has asked for changes: the browser
    // must still learn of the rebuild that lands meanwhile.
    await page.goto(`${own.site}/blog/${slug}`, { waitUntil: "commit" });
    const marker = `Edited while the page was open (${Date.now()}).`;
    const saved = Date.now();
    writeFileSync(file, `${original.trimEnd()}\n\n${marker}\n`);
    await page.getByText(marker).waitFor({ timeout: 15_000 });
    t.diagnostic(`saved file → text in the browser: ${Date.now() - saved} ms`);
    await v.shot("after-edit");
    writeFileSync(file, original);
    await page.getByText(marker).waitFor({ state: "detached", timeout: 15_000 });
    await v.context.close();
  } finally {
    await own.stop();
  }
});
