// A booking made on the public scheduling page without the client link of /book-session, as
// anyone may make one with a client's email: it uses nobody's credit and "needs attention".
// The admin sees it in Booking Management and assigns it to the client (once the client has a
// credit); a second one the client answers on the dashboard with "This wasn't me". Each step is
// checked with axe (the Assign dialog included) and photographed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, DEMO_CLIENT, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { signIn } from "../lib/portal.mjs";

const CLIENT = DEMO_CLIENT;
const COACH = "hello@coach.example.com";

let product;
let browser;
let admin;
let schedulingPage;

before(async () => {
  product = await startProduct();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await product?.stop();
});

const stat = (page, label) => page.locator(`dt:text-is("${label}") + dd`);

async function noAxeViolations(page, where, context) {
  assert.deepEqual(await axe(page, context), [], `axe on ${where}`);
}

/** Books the first free slot on the public scheduling page as someone typing `email`, with no client link. */
async function bookWithoutReference(name, email, shot) {
  const stranger = await visitor(browser, `needs-attention-${shot}`);
  const { page } = stranger;
  await page.goto(schedulingPage, { waitUntil: "networkidle" });
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await stranger.shot(shot);
  await page.locator('button[name="start"]').first().click();
  await page.getByText(/confirmed|scheduled|booked/i).first().waitFor({ timeout: 15_000 });
  await stranger.shot(`${shot}-booked`);
  assert.deepEqual(stranger.problems, []);
  await stranger.context.close();
}

async function openBookingManagement(page) {
  await page.goto(product.site + "/admin", { waitUntil: "networkidle" });
  await page.getByRole("tab", { name: "Booking Management" }).click();
  return page.getByRole("heading", { name: "Needs attention" }).waitFor();
}

test("the admin's Booking Management has nothing that needs attention yet", async () => {
  admin = await visitor(browser, "needs-attention-admin");
  const { page } = admin;
  await signIn(page, ADMIN, product.site);
  await page.waitForURL(`${product.site}/admin`);
  await openBookingManagement(page);
  await page.getByText("No bookings need attention.").waitFor();
  // The public scheduling page, as the coach shares it.
  schedulingPage = await page.getByRole("link", { name: /^Open / }).getAttribute("href");
  assert.match(schedulingPage, /\/calendly-standin\/book$/);
});

test("a booking with the client's email but no client link uses no credit and needs attention", async () => {
  await bookWithoutReference("Somebody Else", CLIENT.email, "public-scheduler");
  const alert = await product.mail.waitFor(COACH, /Booking needs attention/);
  assert.match(alert.text ?? "", /nothing proves who the client is/);

  const { page } = admin;
  await openBookingManagement(page);
  const table = page.getByRole("region", { name: "Bookings that need attention" });
  const row = table.getByRole("row").filter({ hasText: "Somebody Else" });
  await row.waitFor();
  await row.getByText("Needs attention").waitFor();
  await row.getByText("Not assigned: no proof of the client").waitFor();
  await admin.shot("booking-management-needs-attention");
  await noAxeViolations(page, "Booking Management with a booking that needs attention");

  // The client has no credit: the dialog says so and will not assign.
  await row.getByRole("button", { name: /^Assign to client/ }).click();
  const dialog = page.getByRole("dialog", { name: "Assign to client" });
  await dialog.waitFor();
  const select = dialog.getByLabel("Client");
  assert.match(await select.locator("option:checked").innerText(), /client@coach\.example\.com\): 0 credits/, "the client whose email was typed is offered first");
  await dialog.getByText("Insufficient Credits.").waitFor();
  assert.equal(await dialog.getByRole("button", { name: "Assign and use 1 credit" }).isDisabled(), true);
  await admin.shot("assign-dialog-no-credit");
  await noAxeViolations(page, "the Assign to client dialog (no credit)", '[role="dialog"]');
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.deepEqual(admin.problems, []);
});

test("after a payment the admin assigns it to the client, which uses one credit", async () => {
  const { page } = admin;
  await page.goto(product.site + "/admin/add-payment", { waitUntil: "networkidle" });
  const client = page.getByLabel("Client");
  await client.locator("option", { hasText: CLIENT.email }).waitFor({ state: "attached" });
  const value = await client.locator("option", { hasText: CLIENT.email }).getAttribute("value");
  await client.selectOption(value);
  await page.getByLabel("Amount").fill("4500");
  await page.getByLabel("Sessions Purchased").fill("1");
  await page.getByRole("button", { name: /Add Payment|Record/ }).first().click();
  await page.getByText("Payment Added").first().waitFor();

  await openBookingManagement(page);
  const table = page.getByRole("region", { name: "Bookings that need attention" });
  const row = table.getByRole("row").filter({ hasText: "Somebody Else" });
  await row.getByRole("button", { name: /^Assign to client/ }).click();
  const dialog = page.getByRole("dialog", { name: "Assign to client" });
  await dialog.waitFor();
  assert.match(await dialog.getByLabel("Client").locator("option:checked").innerText(), /1 credit$/);
  await dialog.getByText("Mona Adel has 1 available credit.").waitFor();
  await admin.shot("assign-dialog");
  await noAxeViolations(page, "the Assign to client dialog", '[role="dialog"]');
  await dialog.getByRole("button", { name: "Assign and use 1 credit" }).click();
  await page.getByText("Booking Assigned").first().waitFor();
  await dialog.waitFor({ state: "hidden" });
  await page.getByText("No bookings need attention.").waitFor();
  const recent = page.getByRole("region", { name: "Recent bookings table" });
  const assigned = recent.getByRole("row").filter({ hasText: CLIENT.email });
  await assigned.getByText("Confirmed").waitFor();
  await admin.shot("assigned");
  await noAxeViolations(page, "Booking Management after Assign", '[role="tabpanel"]');
  await product.mail.waitFor(CLIENT.email, /Session confirmed/);
  assert.deepEqual(admin.problems, []);
});

test("the client sees the assigned session, and answers another one with This wasn't me", async () => {
  await bookWithoutReference("Somebody Else", CLIENT.email, "public-scheduler-again");

  const client = await visitor(browser, "needs-attention-client");
  const { page } = client;
  await signIn(page, CLIENT, product.site);
  await page.waitForURL(`${product.site}/dashboard`);
  await page.getByRole("heading", { name: "Client Dashboard" }).waitFor();
  assert.equal(await stat(page, "Available Credits").innerText(), "0", "the assigned session used the credit");
  const sessions = page.locator("section").filter({ has: page.getByRole("heading", { name: "Upcoming Sessions" }) });
  await sessions.getByRole("link", { name: /Join Meeting/ }).waitFor();
  const ask = sessions.getByRole("group", { name: /^Pending session on/ });
  await ask.getByRole("button", { name: "Use 1 credit for this session" }).waitFor();
  await client.shot("dashboard-pending-with-my-email");
  await noAxeViolations(page, "/dashboard with a booking to answer");

  // No credit left: the claim is refused and nothing changes.
  await ask.getByRole("button", { name: "Use 1 credit for this session" }).click();
  await page.getByText("Insufficient Credits").first().waitFor();
  await ask.getByRole("button", { name: "This wasn't me" }).click();
  await page.getByText("The session is removed from your dashboard").first().waitFor();
  await ask.waitFor({ state: "detached" });
  await client.shot("dashboard-disowned");
  // The refused claim's 409 (and Chromium's console line about it) is expected.
  assert.deepEqual(
    client.problems.filter((p) => !/status of 409|^409 for POST .*\/claim$/.test(p)),
    [],
  );
  await client.context.close();

  // It stays with the admin, marked.
  const { page: adminPage } = admin;
  await openBookingManagement(adminPage);
  const row = adminPage.getByRole("region", { name: "Bookings that need attention" }).getByRole("row").filter({ hasText: "Somebody Else" });
  await row.getByText("said it wasn't them").waitFor();
  await admin.shot("booking-management-disowned");
  assert.deepEqual(admin.problems, []);
  await admin.context.close();
});
