// The portal in a real browser, as one story: a visitor signs up from the purchase dialog, pays
// through the PayTabs stand-in, sees the credits, books through the Calendly stand-in; the admin
// finds the client and cancels the session, and the credit comes back; a declined payment; who
// may open which page. Each step is checked with axe (open dialogs included) and photographed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { signIn } from "../lib/portal.mjs";

const CLIENT = { name: "Mona Adel", email: "mona.adel@example.com", password: "mona-portal-2026", phone: "+20 100 123 4567" };

let product;
let browser;
let client; // the client's browser context, kept signed in across the story

before(async () => {
  product = await startProduct();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await product?.stop();
});

const stat = (page, label) => page.locator(`dt:text-is("${label}") + dd`);

/** Opens a dialog with its button, photographs it, checks it with axe, and closes it with Escape. */
async function checkDialog(v, name, shot) {
  await v.page.getByRole("button", { name }).click();
  const dialog = v.page.getByRole("dialog", { name });
  await dialog.waitFor();
  await v.shot(shot);
  await noAxeViolations(v.page, `the ${name} dialog`, '[role="dialog"]');
  await v.page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
}

async function noAxeViolations(page, where, context) {
  assert.deepEqual(await axe(page, context), [], `axe on ${where}`);
}

test("a visitor signs up from the purchase dialog, pays, and sees the credits", async () => {
  client = await visitor(browser, "client-purchase");
  const { page } = client;
  await page.goto(product.site + "/pricing", { waitUntil: "networkidle" });
  const card = page.locator("article, li, div").filter({ has: page.getByRole("heading", { name: "Momentum Package" }) }).last();
  await card.getByRole("button", { name: "Buy Now" }).click();

  const dialog = page.getByRole("dialog", { name: "Complete Your Purchase" });
  await dialog.getByText("Please sign in or create an account to complete your purchase").waitFor();
  assert.match(await dialog.innerText(), /Momentum Package/);
  await client.shot("dialog-signed-out");
  await noAxeViolations(page, "the purchase dialog (signed out)", '[role="dialog"]');

  await dialog.getByRole("tab", { name: "Sign Up" }).click();
  await dialog.getByLabel("Full Name").fill(CLIENT.name);
  await dialog.getByLabel("Email").fill(CLIENT.email);
  await dialog.getByLabel("Phone (optional)").fill(CLIENT.phone);
  await dialog.getByLabel("Password").fill(CLIENT.password);
  await dialog.getByRole("button", { name: "Sign Up", exact: true }).click();
  await page.getByText("Account created!").waitFor();

  // Signed in: the purchase form, email locked to the account's.
  const proceed = dialog.getByRole("button", { name: "Proceed to Payment" });
  await proceed.waitFor();
  const email = dialog.getByLabel("Email");
  assert.equal(await email.inputValue(), CLIENT.email);
  assert.ok((await email.isDisabled()) || (await email.getAttribute("readonly")) !== null, "the account email is locked");
  await dialog.getByLabel("Phone Number").fill(CLIENT.phone);
  await client.shot("dialog-signed-in");
  await noAxeViolations(page, "the purchase dialog (signed in)", '[role="dialog"]');
  await proceed.click();

  // The hosted payment page (the PayTabs stand-in), then back through the signed return.
  await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: 15_000 });
  await client.shot("paytabs-page");
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL(/\/payment\/success\?cart_id=/, { timeout: 15_000 });
  await page.getByText("Payment Successful!").waitFor({ timeout: 15_000 });
  const receipt = await page.locator("main").innerText();
  assert.match(receipt, /Momentum Package/);
  assert.match(receipt, /20,250/);
  await client.shot("payment-success");
  await noAxeViolations(page, "/payment/success");

  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await page.waitForURL(`${product.site}/dashboard`);
  await page.getByRole("heading", { name: "Client Dashboard" }).waitFor();
  await page.getByText(CLIENT.name).first().waitFor();
  assert.equal(await stat(page, "Available Credits").innerText(), "5");
  assert.equal(await stat(page, "Total Purchased").innerText(), "5");
  await page.getByText("No upcoming sessions").waitFor();
  await client.shot("dashboard-credits");
  await noAxeViolations(page, "/dashboard");

  const mail = await product.mail.waitFor(CLIENT.email, /receipt/i);
  assert.match(mail.text ?? "", /Momentum Package/);
  // The 401 of the first "who is signed in?" check is expected; nothing else.
  assert.deepEqual(client.problems, []);
});

test("the client books through the scheduler and sees the session under Upcoming Sessions", async () => {
  const { page } = client;
  await page.getByRole("link", { name: "Book New Session" }).click();
  await page.waitForURL(`${product.site}/book-session`);
  const frame = page.frameLocator('iframe[title="Book a session"]');
  const slot = frame.locator('button[name="start"]').first();
  await slot.waitFor({ timeout: 15_000 });
  await client.shot("book-session");
  await noAxeViolations(page, "/book-session");
  await slot.click();
  await frame.getByText(/confirmed|scheduled|booked/i).first().waitFor({ timeout: 15_000 });
  await client.shot("booked-in-scheduler");

  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  await page.getByRole("heading", { name: "Client Dashboard" }).waitFor();
  assert.equal(await stat(page, "Available Credits").innerText(), "4", "one credit is used");
  const sessions = page.locator("section").filter({ has: page.getByRole("heading", { name: "Upcoming Sessions" }) });
  await sessions.getByText("confirmed", { exact: false }).first().waitFor();
  await sessions.getByRole("link", { name: /Join Meeting/ }).waitFor();
  await client.shot("dashboard-upcoming");
  const mail = await product.mail.waitFor(CLIENT.email, /Session confirmed/);
  assert.ok(mail);
  assert.deepEqual(client.problems, []);
});

test("the admin sees the stats, finds the client, cancels the session, and the credit is back", async () => {
  const admin = await visitor(browser, "admin");
  const { page } = admin;
  await page.goto(product.site + "/auth", { waitUntil: "networkidle" });
  await signIn(page, ADMIN);
  await page.waitForURL(`${product.site}/admin`);
  await stat(page, "Total Clients").waitFor();
  // The demo client of a new database, and the client of this story.
  assert.equal(await stat(page, "Total Clients").innerText(), "2");
  assert.equal(await stat(page, "Credits Sold").innerText(), "5");
  assert.equal(await stat(page, "Upcoming Sessions").innerText(), "1");
  await admin.shot("admin-overview");
  await noAxeViolations(page, "/admin");

  await checkDialog(admin, "Add User", "admin-add-user");

  await page.getByPlaceholder("Search by name or email").fill("mona");
  const clients = page.getByRole("region", { name: "Clients table" });
  await clients.getByText(CLIENT.email).waitFor();
  await page.getByPlaceholder("Search by name or email").fill("nobody-like-this");
  await page.getByText("No users found matching your search").waitFor();
  await admin.shot("admin-search-empty");

  await page.getByRole("tab", { name: "Sessions Management" }).click();
  const table = page.getByRole("region", { name: "Sessions table" });
  await table.getByText(CLIENT.name).first().waitFor();
  await admin.shot("admin-sessions");
  await checkDialog(admin, "Add Phone Booking", "admin-phone-booking");
  await table.getByRole("button", { name: /^Cancel/ }).first().click();
  const confirm = page.getByRole("alertdialog").or(page.getByRole("dialog")).filter({ hasText: "Cancel this booking?" });
  await confirm.waitFor();
  await admin.shot("admin-cancel-confirm");
  await noAxeViolations(page, "the cancel confirmation", '[role="alertdialog"], [role="dialog"]');
  await confirm.getByRole("button", { name: "Cancel Booking" }).click();
  await page.getByText("Booking Cancelled").first().waitFor();
  await admin.shot("admin-cancelled");

  await page.getByRole("tab", { name: "Add Payment" }).click();
  await page.getByRole("link", { name: /Add Payment/ }).last().click();
  await page.waitForURL(`${product.site}/admin/add-payment`);
  await page.getByRole("button", { name: /Add Payment|Record/ }).first().waitFor();
  await admin.shot("admin-add-payment");
  await noAxeViolations(page, "/admin/add-payment");
  assert.deepEqual(admin.problems, []);
  await admin.context.close();

  // The client's credit is back, and the session shows under Cancelled.
  const { page: mine } = client;
  await mine.reload({ waitUntil: "networkidle" });
  await mine.getByRole("heading", { name: "Client Dashboard" }).waitFor();
  assert.equal(await stat(mine, "Available Credits").innerText(), "5");
  await client.shot("dashboard-credit-back");
  await product.mail.waitFor(CLIENT.email, /Session cancelled/);
  assert.deepEqual(client.problems, []);
});

test("a declined payment lands on /payment/failed and credits nothing", async () => {
  const { page } = client;
  await page.goto(product.site + "/group-team-coaching-pricing", { waitUntil: "networkidle" });
  await page.getByRole("button", { name: "Buy Now" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Complete Your Purchase" });
  await dialog.getByLabel("Phone Number").fill(CLIENT.phone);
  await dialog.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Decline" }).click({ timeout: 15_000 });
  await page.waitForURL(/\/payment\/failed/, { timeout: 15_000 });
  await page.getByRole("link", { name: "Try Again" }).waitFor();
  await client.shot("payment-failed");
  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  await page.getByRole("heading", { name: "Client Dashboard" }).waitFor();
  assert.equal(await stat(page, "Available Credits").innerText(), "5", "a declined payment adds nothing");
  assert.deepEqual(client.problems, []);
});

test("each page lets in only who may see it", async () => {
  // A client opening /admin lands on /dashboard.
  await client.page.goto(product.site + "/admin");
  await client.page.waitForURL(`${product.site}/dashboard`);
  await client.context.close();

  // A signed-out visitor opening /dashboard lands on /auth.
  const stranger = await visitor(browser, "access");
  await stranger.page.goto(product.site + "/dashboard");
  await stranger.page.waitForURL(`${product.site}/auth`);
  await stranger.shot("signed-out-to-auth");

  // An admin opening /dashboard or /book-session lands on /admin.
  const { page } = stranger;
  await signIn(page, ADMIN);
  await page.waitForURL(`${product.site}/admin`);
  for (const path of ["/dashboard", "/book-session"]) {
    await page.goto(product.site + path);
    await page.waitForURL(`${product.site}/admin`);
  }
  await stranger.context.close();
});

test("ten wrong passwords: the sign-in form says how long, and its reset link is the way in", async () => {
  const v = await visitor(browser, "sign-in-locked");
  const { page } = v;
  await page.goto(product.site + "/auth", { waitUntil: "networkidle" });
  // Someone guesses the client's password ten times.
  const statuses = await page.evaluate(async (email) => {
    const out = [];
    for (let i = 0; i < 10; i++) {
      const r = await fetch("/api/auth/sign-in", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password: `wrong-guess-${i}` }),
      });
      out.push(r.status);
    }
    return out;
  }, CLIENT.email);
  assert.deepEqual(statuses, Array(10).fill(400));
  // The owner, with the right password, is told what to do, right in the form.
  await signIn(page, CLIENT);
  const alert = page.getByRole("tabpanel", { name: "Sign In" }).getByRole("alert");
  await alert.waitFor();
  assert.match(await alert.innerText(), /Too many attempts\. Try again in 15 minutes, or reset your password\./);
  await v.shot("sign-in-locked");
  await noAxeViolations(page, "the locked sign-in form", ".auth-card");
  await alert.getByRole("link", { name: "Reset your password" }).click();
  await page.getByRole("button", { name: "Email me a reset link" }).waitFor();
  await v.shot("sign-in-locked-reset");
});
