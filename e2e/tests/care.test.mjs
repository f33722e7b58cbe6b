// Credits that keep the site's promises, in the browser: a client cancels a session that starts
// in less than 24 hours from the dashboard (the dialog says the credit stays used, and it does),
// and opens the receipt of a payment the admin recorded, on screen and as the print stylesheet
// lays it out. The admin's client page shows the same client. Each step is checked with axe and
// photographed, at 1366 px and 390 px.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, DEMO_CLIENT, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { cairo, call, signIn } from "../lib/portal.mjs";

const CLIENT = DEMO_CLIENT;

let product;
let browser;
let clientId;
let paymentId;

before(async () => {
  product = await startProduct();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await product?.stop();
});

const stat = (page, label) => page.locator(`dt:text-is("${label}") + dd`);

test("the admin records a payment and a session in three hours for the demo client", async () => {
  const admin = await visitor(browser, "care-admin");
  const { page } = admin;
  await signIn(page, ADMIN, product.site);
  await page.waitForURL(`${product.site}/admin`);
  const clients = await call(page, "GET", "/api/admin/clients?search=client%40coach");
  clientId = clients.body[0].user_id;
  const paid = await call(page, "POST", "/api/admin/payments", {
    clientId, amount: 4500.5, sessionsPurchased: 2, paymentDate: cairo(0).date, paymentMethod: "bank_transfer", referenceNumber: "TRX-2041",
  });
  assert.equal(paid.status, 201);
  paymentId = paid.body.id;
  const { date, time } = cairo(3);
  const booked = await call(page, "POST", "/api/admin/bookings", { clientId, sessionDate: date, sessionTime: time, status: "confirmed", sessionNotes: "Strategy session" });
  assert.equal(booked.status, 201, JSON.stringify(booked.body));

  await page.goto(`${product.site}/admin/client?id=${clientId}`, { waitUntil: "networkidle" });
  await page.getByRole("heading", { name: "Ledger" }).waitFor();
  assert.equal(await stat(page, "Available").textContent(), "1");
  await page.getByRole("link", { name: "R-000001" }).waitFor();
  assert.deepEqual(await axe(page), [], "axe on the client page");
  await admin.shot("client-page");
  assert.deepEqual(admin.problems, []);
  await admin.context.close();
});

for (const mobile of [false, true]) {
  const width = mobile ? "390" : "1366";
  test(`a late cancel from the dashboard keeps the credit used, and the receipt prints (${width} px)`, async () => {
    const client = await visitor(browser, `care-client-${width}`, { mobile });
    const { page } = client;
    await signIn(page, CLIENT, product.site);
    await page.waitForURL(`${product.site}/dashboard`);
    await page.getByRole("heading", { name: "Upcoming Sessions" }).waitFor();
    if (!mobile) {
      assert.equal(await stat(page, "Available Credits").textContent(), "1");
      await page.getByRole("button", { name: /^Cancel the session on / }).click();
      const dialog = page.getByRole("dialog", { name: "Cancel this session?" });
      await dialog.waitFor();
      assert.match(await dialog.textContent(), /less than 24 hours\. Under our cancellation policy the session credit stays used\./);
      assert.deepEqual(await axe(page, '[role="dialog"]'), [], "axe on the cancel dialog");
      await client.shot("cancel-dialog");
      await dialog.getByRole("button", { name: "Cancel session" }).click();
      await page.getByText("the session credit stays used", { exact: false }).first().waitFor();
      await page.locator(".client-session .status-badge", { hasText: "cancelled" }).waitFor();
      assert.equal(await stat(page, "Available Credits").textContent(), "1", "the credit stays used");
      assert.equal(await page.getByRole("button", { name: /^Cancel the session on / }).count(), 0);
      const mail = await product.mail.waitFor(CLIENT.email, /Session cancelled/);
      assert.match(mail.text ?? "", /stays used/);
      await client.shot("cancelled");
    }

    await page.getByRole("link", { name: /^Receipt/ }).first().click();
    await page.waitForURL(`${product.site}/receipt?id=${paymentId}`);
    const receipt = page.getByRole("article", { name: "Receipt R-000001" });
    await receipt.waitFor();
    const text = await receipt.textContent();
    for (const expected of ["Nadine Kamel Coaching LLC", "512-384-976", "New Cairo", "Mona Adel", "Coaching sessions", "2 sessions", "Bank transfer", "TRX-2041"]) {
      assert.ok(text.includes(expected), `the receipt shows ${expected}: ${text}`);
    }
    assert.match(text, /4,500\.50\sEGP/);
    assert.deepEqual(await axe(page), [], "axe on the receipt");
    await client.shot("receipt");
    await page.emulateMedia({ media: "print" });
    assert.equal(await page.getByRole("button", { name: "Print or save as PDF" }).isVisible(), false, "print shows the receipt only");
    assert.equal(await page.locator(".site-header").isVisible(), false);
    await client.shot("receipt-print");
    await page.emulateMedia({ media: "screen" });
    assert.deepEqual(client.problems, []);
    await client.context.close();
  });
}

test("the receipt email links to the receipt, which nobody signed out can read", async () => {
  const mail = await product.mail.waitFor(CLIENT.email, /Your receipt from .*R-000001/);
  assert.ok((mail.text ?? "").includes(`${product.site}/receipt?id=${paymentId}`));
  const r = await fetch(`${product.site}/api/receipts/${paymentId}`);
  assert.equal(r.status, 401);
});
