// Companies that pay for their executives (issue 23), as the coach and the company use it: the
// admin creates a sponsor and an engagement of 6 credits for the demo client, sends its invoice;
// the billing contact opens the invoice's link (no account), pays it on the PayTabs stand-in;
// the executive sees where the credits come from and books a session with one of them; the
// contact's usage report shows the session's day and nothing private. At 1366 and 390 px.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, DEMO_CLIENT, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { signIn } from "../lib/portal.mjs";

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

test("an engagement goes from creation through its paid invoice to a booked session and the sponsor's report", async () => {
  // ---- the coach: a sponsor, an engagement for the demo client, the invoice sent
  const admin = await visitor(browser, "sponsors-admin");
  const a = admin.page;
  await signIn(a, ADMIN, product.site);
  await a.waitForURL(`${product.site}/admin`);
  await a.getByRole("tab", { name: "Sponsors" }).click();
  await a.getByRole("button", { name: "New sponsor" }).click();
  const form = a.getByRole("dialog", { name: "New sponsor" });
  await form.getByLabel("Company name").fill("Nile Pharma");
  await form.getByLabel("Billing contact name").fill("Rana Fathy");
  await form.getByLabel("Billing contact email").fill("billing@nilepharma.example");
  await form.getByLabel("Tax registration number").fill("123-456-789");
  await form.getByLabel("Notes").fill("Renewal talks in March");
  assert.deepEqual(await axe(a, '[role="dialog"]'), [], "axe on the sponsor dialog");
  await form.getByRole("button", { name: "Create sponsor" }).click();
  await a.getByText("Sponsor Nile Pharma created").waitFor();
  await a.getByRole("button", { name: "Open Nile Pharma" }).click();
  await a.getByRole("button", { name: "New engagement" }).click();
  const dialog = a.getByRole("dialog", { name: "New engagement" });
  await dialog.getByLabel("Title").fill("Leadership programme 2027");
  await dialog.getByLabel("Credits", { exact: true }).fill("6");
  await dialog.getByLabel("Price (EGP)").fill("27000");
  await dialog.getByRole("button", { name: "Add executive" }).click();
  const row = dialog.getByRole("group", { name: "Executive 1" });
  await row.getByLabel("Executive").selectOption({ label: `${DEMO_CLIENT.name} (${DEMO_CLIENT.email})` });
  await row.getByLabel("Credits").fill("6");
  await admin.shot("new-engagement");
  assert.deepEqual(await axe(a, '[role="dialog"]'), [], "axe on the engagement dialog");
  await dialog.getByRole("button", { name: "Create engagement" }).click();
  await a.getByText("Engagement Leadership programme 2027 created").waitFor();
  await a.getByRole("button", { name: "Manage Leadership programme 2027" }).click();
  await a.getByRole("button", { name: "Send invoice" }).click();
  await product.mail.waitFor("billing@nilepharma.example", /Invoice INV-\d+/);
  await admin.shot("engagement");
  assert.deepEqual(admin.problems, []);

  // ---- the billing contact: the emailed link, no account, pays by card on PayTabs' page
  const mail = await product.mail.waitFor("billing@nilepharma.example", /Invoice INV-\d+/);
  const link = (mail.text ?? "").match(/https?:\/\/\S+\/invoice\?token=[^\s"<>]+/)?.[0];
  assert.ok(link, `the email links the invoice: ${mail.text}`);
  const contact = await visitor(browser, "sponsors-contact", { mobile: true });
  const c = contact.page;
  await c.goto(link, { waitUntil: "networkidle" });
  await c.getByRole("heading", { name: /Invoice INV-\d+/ }).waitFor();
  assert.match(await c.locator("main").innerText(), /27,000/);
  assert.doesNotMatch(await c.locator("main").innerText(), /Renewal talks/, "the admin's notes stay private");
  await contact.shot("invoice-390");
  assert.deepEqual(await axe(c), [], "axe on the invoice page");
  await c.getByRole("button", { name: "Pay now" }).click();
  await c.getByRole("button", { name: "Approve" }).waitFor({ timeout: 15_000 });
  await c.getByRole("button", { name: "Approve" }).click();
  await c.getByText("Thank you, your payment was received.").waitFor({ timeout: 15_000 });
  await contact.shot("invoice-paid-390");
  await product.mail.waitFor("billing@nilepharma.example", /Receipt for invoice/);
  assert.deepEqual(contact.problems, []);

  // ---- the executive: the credits, where they come from, and a session booked with one
  const exec = await visitor(browser, "sponsors-executive");
  const e = exec.page;
  await signIn(e, DEMO_CLIENT, product.site);
  await e.waitForURL(`${product.site}/dashboard`);
  await e.getByText("6 of your credits come from Nile Pharma (Leadership programme 2027); 6 left.").waitFor();
  await exec.shot("dashboard-sponsored");
  await e.goto(product.site + "/book-session", { waitUntil: "networkidle" });
  const frame = e.frameLocator('iframe[title="Book a session"]');
  await frame.locator('button[name="start"]').first().click({ timeout: 15_000 });
  await e.getByText("Your session is booked and 1 credit was used. You have 5 credits left.").waitFor({ timeout: 40_000 });
  assert.deepEqual(exec.problems, []);

  // ---- the coach makes a report link; the contact opens it (no account)
  await a.getByText("Back to Nile Pharma").click();
  await a.getByRole("button", { name: "Create report link" }).click();
  const url = await a.getByRole("textbox", { name: "Report link" }).inputValue();
  assert.match(url, /\/sponsor-report\?token=/);
  await admin.shot("report-link");
  await c.goto(url, { waitUntil: "networkidle" });
  await c.getByRole("heading", { name: "Coaching usage: Nile Pharma" }).waitFor();
  const table = (await c.locator("main table").innerText()).replace(/\s+/g, " ");
  assert.match(table, new RegExp(`${DEMO_CLIENT.name} Leadership programme 2027 6 1 5`), table);
  assert.doesNotMatch(await c.locator("main").innerText(), /meet\.google|Renewal talks/, "nothing private");
  await c.getByRole("link", { name: "Download CSV" }).waitFor();
  await contact.shot("report-390");
  assert.deepEqual(await axe(c), [], "axe on the report page");
  assert.deepEqual(contact.problems, []);
  assert.deepEqual(admin.problems, []);
});
