// The coach's credit tools (issue 14) in real Chromium, with the mouse and the keyboard: the
// admin refunds an online payment through the PayTabs stand-in from the client page (the dialog
// says how many credits and how much money can be refunded before the admin confirms) and the
// client's payment history shows the refund as its own line while only the unused credits
// leave; Add Payment records credits valid for the months the admin picks, and the admin extends
// that lot with a reason; a late cancellation is waived from Sessions Management and from the
// client page; the client page adjusts credits with a reason and deactivates and reactivates the
// account. At 1366 px and 390 px, each step checked with axe and photographed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, DEMO_CLIENT, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { cairo, call, plusMonths, shownDay as shown, signIn } from "../lib/portal.mjs";

const CLIENT = DEMO_CLIENT;
const WIDE = { width: 1366, height: 900 };

let product;
let browser;
let clientId;

before(async () => {
  product = await startProduct();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await product?.stop();
});

/** A browser context signed in as `who`, 1366 px wide or a 390 px phone. */
async function signedIn(who, folder, { mobile = false } = {}) {
  const v = await visitor(browser, folder, { mobile });
  if (!mobile) await v.page.setViewportSize(WIDE);
  await signIn(v.page, who, product.site);
  await v.page.waitForURL(who === ADMIN ? `${product.site}/admin` : `${product.site}/dashboard`);
  return v;
}

const stat = (page, label) => page.locator(`dt:text-is("${label}") + dd`);

/** Waits until the client page's figure `label` reads `value`. */
async function statReads(page, label, value) {
  await stat(page, label).filter({ hasText: new RegExp(`^${value}$`) }).waitFor();
}

/** The cell of a lot's row under the column `label` (the card's line at 390 px). */
const cell = (row, label) => row.locator(`td[data-label="${label}"]`);

async function noAxeViolations(page, where, context = "document") {
  assert.deepEqual(await axe(page, context), [], `axe on ${where}`);
}

/** Opens the client page from Client Management, as the coach does. */
async function openClientPage(page) {
  await page.goto(product.site + "/admin", { waitUntil: "networkidle" });
  await page.getByRole("tab", { name: "Client Management" }).click();
  await page.getByRole("region", { name: "Clients table" }).getByRole("link", { name: CLIENT.name }).click();
  await page.waitForURL(`${product.site}/admin/client?id=${clientId}`);
  await page.getByRole("heading", { name: "Ledger" }).waitFor();
}

/** The demo client's id, asked as the admin (each test can run alone). */
async function findClient(page) {
  const clients = await call(page, "GET", `/api/admin/clients?search=${encodeURIComponent(CLIENT.email)}`);
  assert.equal(clients.status, 200);
  clientId = clients.body[0].user_id;
  return clients.body[0];
}

async function lotsOf(page) {
  const r = await call(page, "GET", `/api/admin/clients/${clientId}/lots`);
  assert.equal(r.status, 200);
  return r.body;
}

test("the admin refunds an online payment through PayTabs: the client sees the refund line and loses only the unused credits", async () => {
  // The client buys the Momentum Package (5 credits) on the PayTabs stand-in.
  const client = await signedIn(CLIENT, "admin-credits-client-purchase");
  {
    const { page } = client;
    await page.goto(product.site + "/pricing", { waitUntil: "networkidle" });
    const card = page.locator("li").filter({ has: page.getByRole("heading", { name: "Momentum Package" }) });
    await card.getByRole("button", { name: /Buy Now/ }).click();
    const dialog = page.getByRole("dialog", { name: "Complete Your Purchase" });
    await dialog.getByLabel("Phone Number").fill("+20 100 123 4567");
    await dialog.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.getByRole("button", { name: "Approve" }).click({ timeout: 15_000 });
    await page.waitForURL(/\/payment\/success\?cart_id=/, { timeout: 15_000 });
    await page.getByRole("heading", { level: 1, name: "Payment Successful!" }).waitFor({ timeout: 15_000 });
  }

  // One of the five is used: the admin books a session by phone in three days.
  const admin = await signedIn(ADMIN, "admin-credits-refund");
  const { page } = admin;
  await findClient(page);
  const later = cairo(72);
  const booked = await call(page, "POST", "/api/admin/bookings", { clientId, sessionDate: later.date, sessionTime: later.time, status: "confirmed", sessionNotes: "Strategy session" });
  assert.equal(booked.status, 201, JSON.stringify(booked.body));

  await openClientPage(page);
  assert.equal(await stat(page, "Available").textContent(), "4");
  assert.equal(await stat(page, "Used").textContent(), "1");
  const lots = page.getByRole("region", { name: "Credits by lot" });
  await lots.getByText("Online purchase").waitFor();
  await admin.shot("client-page");
  await noAxeViolations(page, "the client page");

  // The dialog says what can be refunded before anything happens.
  const refund = page.getByRole("button", { name: /^Refund the payment of 20,250\sEGP/ });
  await refund.click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment" });
  await dialog.getByText("Money left to refund").waitFor();
  const figures = (label) => dialog.locator(`dt:text-is("${label}") + dd`);
  assert.equal((await figures("Unused credits").innerText()).replace(/\s+/g, " "), "4 of 5");
  assert.match(await figures("Money left to refund").innerText(), /^20,250\sEGP$/);
  assert.match(await figures("Already refunded").innerText(), /^0\sEGP$/);
  assert.match(await dialog.innerText(), /Paid online: the refund is sent to PayTabs/);
  const credits = dialog.getByLabel("Credits to remove");
  // The form opens empty: a full refund is never one click away (issue 20, build item 7).
  const amount = dialog.getByLabel("Amount to refund (EGP)");
  assert.equal(await credits.inputValue(), "", "starts empty");
  assert.equal(await amount.inputValue(), "", "starts empty");
  // The keyboard starts on the first field once the figures are in.
  await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "credits");
  // Refund pressed on the empty form refunds nothing and says why.
  await dialog.getByRole("button", { name: /^Refund/ }).click();
  await dialog.getByText("Refund an amount, credits, or both").waitFor();
  // The suggestion is one deliberate click: the unused credits and their paid price.
  await dialog.getByRole("button", { name: "Use suggested amount" }).click();
  assert.equal(await credits.inputValue(), "4", "suggests the unused credits");
  assert.equal(await amount.inputValue(), "16200.00", "suggests their paid price");

  // More than is unused is refused in the dialog, with the reason.
  await credits.fill("5");
  await dialog.getByRole("button", { name: /^Refund/ }).click();
  await dialog.getByText("At most 4 unused credits can be removed").waitFor();
  await credits.fill("4");
  await dialog.getByLabel("Reason (optional)").fill("Moving abroad");
  await admin.shot("refund-dialog");
  await noAxeViolations(page, "the refund dialog", '[role="dialog"]');
  await dialog.getByRole("button", { name: /^Refund 16,200\sEGP and remove 4 credits$/ }).click();

  await page.getByText("Refund completed").waitFor();
  await dialog.waitFor({ state: "hidden" });
  await statReads(page, "Available", "0");
  await statReads(page, "Used", "1"); // the used credit stays used
  await statReads(page, "Total", "1");
  const ledger = page.getByRole("region", { name: "Credit ledger" });
  await ledger.getByRole("row").filter({ hasText: "Payment refund" }).filter({ hasText: "\u22124" }).waitFor();
  // The refund is its own line under the payment, with what it took back and where it stands.
  const refundLine = page.getByRole("region", { name: "Payments" }).getByRole("row").filter({ hasText: "Refund through PayTabs" });
  await refundLine.waitFor();
  const refundText = (await refundLine.innerText()).replace(/\s+/g, " ");
  assert.match(refundText, /\u221216,200\sEGP/);
  assert.match(refundText, /\u22124/);
  assert.match(refundText, /Refunded/);
  await admin.shot("refunded");

  // Asked again, nothing credit-wise is left and the money left is what was not refunded;
  // Escape closes the dialog and the keyboard is back on the Refund button.
  await refund.click();
  await dialog.getByText("Money left to refund").waitFor();
  assert.equal((await figures("Unused credits").innerText()).replace(/\s+/g, " "), "0 of 5");
  assert.match(await figures("Money left to refund").innerText(), /^4,050\sEGP$/);
  assert.match(await figures("Already refunded").innerText(), /^16,200\sEGP$/);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await page.waitForFunction(() => document.activeElement?.textContent?.startsWith("Refund the payment of"), null, { timeout: 5_000 }); // focus is back on Refund

  // On a phone the same dialog fits the screen: its figures two a row, nothing cut off.
  {
    const phone = await signedIn(ADMIN, "admin-credits-refund-390", { mobile: true });
    await openClientPage(phone.page);
    await phone.page.getByRole("button", { name: /^Refund the payment of 20,250\sEGP/ }).click();
    const small = phone.page.getByRole("dialog", { name: "Refund this payment" });
    await small.getByText("Money left to refund").waitFor();
    await small.getByLabel("Amount to refund (EGP)").waitFor();
    assert.ok(await small.evaluate((d) => d.scrollWidth <= d.clientWidth && d.getBoundingClientRect().right <= 390), "the dialog fits 390 px");
    await noAxeViolations(phone.page, "the refund dialog at 390 px", '[role="dialog"]');
    await phone.shot("refund-dialog-390");
    await small.getByRole("button", { name: "Cancel" }).click();
    await small.waitFor({ state: "hidden" });
    assert.deepEqual(phone.problems, []);
    await phone.context.close();
  }

  // The client: the refund is its own line in the payment history, the credits are gone.
  {
    const { page: c } = client;
    await c.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
    const history = c.locator("section").filter({ has: c.getByRole("heading", { name: "Payment History" }) });
    const line = history.locator("li").filter({ hasText: "Refund:" });
    await line.waitFor();
    assert.match(await line.innerText(), /Refund:\s*16,200\sEGP/);
    assert.match(await line.innerText(), /4 credits removed/);
    const paid = history.locator("li").filter({ hasNotText: "Refund:" }).filter({ hasText: /20,250\sEGP/ });
    await paid.waitFor();
    // The refund's Receipt link opens the refunded payment's receipt, not "Receipt not found"
    // (issue 20, defect 6).
    const receiptOf = (li) => li.getByRole("link", { name: /^Receipt/ }).getAttribute("href");
    assert.equal(await receiptOf(line), await receiptOf(paid), "the refund links to the payment's receipt");
    await line.getByRole("link", { name: /^Receipt/ }).click();
    await c.getByRole("article", { name: /^Receipt R-/ }).waitFor();
    assert.doesNotMatch(await c.locator("main").innerText(), /Receipt not found/);
    await client.shot("refund-line-receipt");
    await c.goBack({ waitUntil: "networkidle" });
    assert.equal(await stat(c, "Available Credits").textContent(), "0");
    await client.shot("dashboard-refund-line");
  }
  const mail = await product.mail.waitFor(CLIENT.email, /Your refund from/);
  assert.match(mail.subject, /16,?200(\.00)?\b/);
  assert.deepEqual(admin.problems, []);
  assert.deepEqual(client.problems, []);
  await admin.context.close();
  await client.context.close();
});

test("Add Payment grants credits for the months picked, and the admin extends them with a reason (1366 px, then 390 px)", async () => {
  const admin = await signedIn(ADMIN, "admin-credits-extend");
  const { page } = admin;
  await findClient(page);
  await page.getByRole("tab", { name: "Add Payment" }).click();
  await page.getByRole("tabpanel", { name: "Add Payment" }).getByRole("link", { name: "Add Payment" }).click();
  await page.waitForURL(`${product.site}/admin/add-payment`);
  const validity = page.getByLabel("Credits valid for");
  await validity.waitFor();
  assert.equal(await validity.inputValue(), "", "the settings' default is picked first");
  assert.equal((await validity.locator("option:checked").textContent()).trim(), "Default: 6 months (site settings)");
  await page.getByLabel("Client", { exact: true }).selectOption({ label: `${CLIENT.name} (${CLIENT.email})` });
  await page.getByLabel("Amount", { exact: true }).fill("3000");
  await page.getByLabel("Sessions Purchased", { exact: true }).fill("2");
  await page.getByLabel("Payment Method", { exact: true }).selectOption("cash");
  await validity.selectOption({ label: "3 months" });
  await noAxeViolations(page, "Add Payment");
  await admin.shot("add-payment-validity");
  await page.getByRole("button", { name: "Add Payment", exact: true }).click();
  await page.getByText("Payment Added").waitFor();

  // The lot lasts three months from the payment (the coach's day may be the next one).
  const lot = (await lotsOf(page)).find((l) => l.source === "offline_payment");
  assert.ok(lot, "a lot for the recorded payment");
  assert.equal(lot.granted, 2);
  const today = cairo(0).date;
  assert.ok([plusMonths(today, 3), plusMonths(cairo(-24).date, 3)].includes(lot.expiresOn), `${lot.expiresOn} is 3 months from today`);

  let expiresOn = lot.expiresOn;
  for (const mobile of [false, true]) {
    const v = mobile ? await signedIn(ADMIN, "admin-credits-extend-390", { mobile: true }) : admin;
    const p = v.page;
    await openClientPage(p);
    const row = p.getByRole("region", { name: "Credits by lot" }).getByRole("row").filter({ hasText: "Recorded payment" });
    await cell(row, "Last day").filter({ hasText: shown(expiresOn) }).waitFor();
    if (mobile) {
      // A card per lot, each value under its column's name, nothing wider than the phone.
      assert.equal(await cell(row, "Last day").evaluate((td) => getComputedStyle(td, "::before").content), '"Last day"');
      assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= 390), "no sideways scrolling at 390 px");
    }
    await row.getByRole("button", { name: /^Extend the 2 credits from / }).click();
    const dialog = p.getByRole("dialog", { name: "Extend these credits" });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), new RegExp(`can be used through ${shown(expiresOn)}`));
    const next = plusMonths(expiresOn, 1);
    await dialog.getByLabel("New last day").fill(next);
    // A reason is required: nothing is sent without one.
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    await dialog.getByText("Give a reason (at least 3 characters)").waitFor();
    assert.equal((await lotsOf(p)).find((l) => l.id === lot.id).expiresOn, expiresOn);
    await dialog.getByLabel("Reason").fill("Client travelling for work");
    await noAxeViolations(p, "the extend dialog", '[role="dialog"]');
    await v.shot("extend-dialog");
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    await p.getByText("Expiry extended").waitFor();
    await dialog.waitFor({ state: "hidden" });
    await cell(row, "Last day").filter({ hasText: shown(next) }).waitFor();
    assert.equal((await lotsOf(p)).find((l) => l.id === lot.id).expiresOn, next, "the API keeps the new last day");
    await v.shot("extended");
    assert.deepEqual(v.problems, []);
    expiresOn = next;
    if (mobile) await v.context.close();
  }
  await admin.context.close();
});

/** A session in three hours, booked by the admin and cancelled by the client: late, so its credit stays used. */
async function lateCancellation(adminPage, clientPage) {
  const soon = cairo(3);
  const booked = await call(adminPage, "POST", "/api/admin/bookings", { clientId, sessionDate: soon.date, sessionTime: soon.time, status: "confirmed", sessionNotes: "Late cancel" });
  assert.equal(booked.status, 201, JSON.stringify(booked.body));
  const cancelled = await call(clientPage, "POST", `/api/bookings/${booked.body.id}/cancel`, {});
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.equal(cancelled.body.creditReturned, false, "cancelled less than 24 hours ahead");
  return booked.body.id;
}

async function availableCredits(page) {
  const r = await call(page, "GET", `/api/admin/clients/${clientId}`);
  return r.body.account.availableCredits;
}

test("a late cancellation is waived from Sessions Management (390 px) and from the client page (1366 px)", async () => {
  const client = await signedIn(CLIENT, "admin-credits-waive-client");
  const phone = await signedIn(ADMIN, "admin-credits-waive-390", { mobile: true });
  const { page } = phone;
  // Two late cancellations each use a credit first.
  if ((await findClient(page)).available_credits < 2) {
    const paid = await call(page, "POST", "/api/admin/payments", { clientId, amount: 3000, sessionsPurchased: 2, paymentDate: cairo(0).date, paymentMethod: "cash" });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
  }
  const first = await lateCancellation(page, client.page);
  const before = await availableCredits(page);

  await page.goto(product.site + "/admin", { waitUntil: "networkidle" });
  await page.getByRole("tab", { name: "Sessions Management" }).click();
  const panel = page.getByRole("tabpanel", { name: "Sessions Management" });
  const waive = panel.getByRole("button", { name: new RegExp(`^Waive the late cancellation of ${CLIENT.name}`) });
  await waive.waitFor();
  assert.equal(await waive.count(), 1, "only the late cancellation offers Waive");
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), "no sideways scrolling at 390 px");
  await phone.shot("sessions-waive");
  await waive.click();
  const dialog = page.getByRole("dialog", { name: "Waive this late cancellation?" });
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /less than 24 hours before the start/);
  await noAxeViolations(page, "the waive dialog", '[role="dialog"]');
  await phone.shot("waive-dialog");
  await dialog.getByRole("button", { name: "Give the credit back" }).click();
  await page.getByText("Late cancellation waived").waitFor();
  await dialog.waitFor({ state: "hidden" });
  await waive.waitFor({ state: "detached" });
  await page.waitForFunction(() => document.activeElement?.textContent === "Sessions Management", null, { timeout: 5_000 }); // focus goes to the tab's heading
  assert.equal(await availableCredits(page), before + 1, "the credit is back");
  const sessions = await call(page, "GET", `/api/admin/sessions?client_id=${clientId}`);
  assert.equal(sessions.body.find((b) => b.id === first).canWaive, false, "waived once");
  await phone.shot("waived");
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  // The same from the client page, at 1366 px.
  const admin = await signedIn(ADMIN, "admin-credits-waive");
  await lateCancellation(admin.page, client.page);
  const then = await availableCredits(admin.page);
  await openClientPage(admin.page);
  const section = admin.page.getByRole("region", { name: "Sessions", exact: true });
  await section.getByRole("button", { name: /^Waive the late cancellation of / }).click();
  const confirm = admin.page.getByRole("dialog", { name: "Waive this late cancellation?" });
  await confirm.getByRole("button", { name: "Give the credit back" }).click();
  await admin.page.getByText("Late cancellation waived").waitFor();
  await section.getByRole("button", { name: /^Waive/ }).waitFor({ state: "detached" });
  await statReads(admin.page, "Available", String(then + 1));
  await admin.shot("client-page-waived");
  assert.deepEqual(admin.problems, []);
  assert.deepEqual(client.problems, []);
  await admin.context.close();
  await client.context.close();
});

test("the client page adjusts credits with a reason, and deactivates and reactivates the account", async () => {
  const admin = await signedIn(ADMIN, "admin-credits-profile");
  const { page } = admin;
  await findClient(page);
  const before = await availableCredits(page);
  await openClientPage(page);

  // Adjust: the keyboard fills the two fields and submits with Enter.
  await page.getByLabel("Credits (+ to add, − to remove)").focus();
  await page.keyboard.type("1");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Goodwill session");
  await page.keyboard.press("Enter");
  await page.getByText("Credits adjusted").waitFor();
  await statReads(page, "Available", String(before + 1));
  await page.getByRole("region", { name: "Credit ledger" }).getByRole("row").filter({ hasText: "Goodwill session" }).waitFor();
  // Added credits are a lot of their own, with the settings' validity.
  await page.getByRole("region", { name: "Credits by lot" }).getByText("Added by an admin").waitFor();

  // Deactivate, then reactivate, each confirmed in its dialog with the keyboard.
  const deactivate = page.getByRole("button", { name: "Deactivate account" });
  await deactivate.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Deactivate this account?" });
  await dialog.waitFor();
  await noAxeViolations(page, "the deactivate dialog", '[role="dialog"]');
  await dialog.getByRole("button", { name: "Deactivate", exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.getByText("Account deactivated").waitFor();
  const profile = page.getByRole("region", { name: "Profile", exact: true });
  await profile.locator(".status-badge", { hasText: /^Deactivated / }).waitFor();
  await admin.shot("deactivated");
  await page.getByRole("button", { name: "Reactivate account" }).click();
  await page.getByRole("dialog", { name: "Reactivate this account?" }).getByRole("button", { name: "Reactivate", exact: true }).click();
  await page.getByText("Account reactivated").waitFor();
  await profile.locator(".status-badge", { hasText: /^Active$/ }).waitFor();
  assert.deepEqual(admin.problems, []);
  await admin.context.close();
});
