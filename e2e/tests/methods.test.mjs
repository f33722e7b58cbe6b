// Paying with Meeza (issue 22, item 1): the purchase dialog lists the package's methods (the
// coach's PayTabs profile in content/settings.yaml; instalments only from 9,000 EGP), the
// client picks Meeza QR, PayTabs' page (the stand-in) offers that method alone, and the
// receipt, the dashboard's history and the admin's client page name it. At 1280 and 390 px.
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

async function openDialog(page, name) {
  await page.goto(product.site + "/pricing", { waitUntil: "networkidle" });
  const card = page.locator("li").filter({ has: page.getByRole("heading", { name }) }).last();
  await card.getByRole("button", { name: "Buy Now" }).click();
  const dialog = page.getByRole("dialog", { name: "Complete Your Purchase" });
  await dialog.getByRole("button", { name: "Proceed to Payment" }).waitFor();
  return dialog;
}

const choices = (dialog) => dialog.getByRole("group", { name: "Payment method" }).getByRole("radio");

test("a client pays with Meeza QR and every page names the method", async () => {
  const v = await visitor(browser, "methods-meeza");
  const { page } = v;
  await signIn(page, DEMO_CLIENT, product.site);
  await page.waitForURL(`${product.site}/dashboard`);

  // A single session is below the instalments' 9,000 EGP: cards, Meeza QR and Apple Pay.
  let dialog = await openDialog(page, "Single Session");
  const small = await choices(dialog).evaluateAll((els) => els.map((e) => e.labels[0].innerText.trim()));
  assert.deepEqual(small, ["Card (Visa, Mastercard, Meeza)", "Meeza QR", "Apple Pay"]);
  await page.keyboard.press("Escape");

  dialog = await openDialog(page, "Momentum Package");
  const labels = await choices(dialog).evaluateAll((els) => els.map((e) => e.labels[0].innerText.trim()));
  assert.deepEqual(labels, ["Card (Visa, Mastercard, Meeza)", "Meeza QR", "Apple Pay", "valU instalments", "Souhoola instalments", "NBE card instalments"]);
  assert.ok(await dialog.getByRole("radio", { name: "Card (Visa, Mastercard, Meeza)" }).isChecked(), "the first method is chosen at first");
  await dialog.getByRole("radio", { name: "Meeza QR" }).check();
  await dialog.getByLabel("Phone Number").fill("+20 100 123 4567");
  await v.shot("dialog-methods");
  assert.deepEqual(await axe(page, '[role="dialog"]'), [], "axe on the dialog with its methods");
  await dialog.getByRole("button", { name: "Proceed to Payment" }).click();

  // PayTabs' page offers the method chosen, and only it.
  await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: 15_000 });
  const offered = await page.getByRole("radio").evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(offered, ["meezaqr"]);
  await v.shot("paytabs-meeza");
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL(/\/payment\/success\?cart_id=/, { timeout: 15_000 });
  await page.getByText("Payment Successful!").waitFor({ timeout: 15_000 });

  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  const history = page.locator(".client-payment").first();
  await history.getByText("Meeza QR").waitFor();
  await v.shot("history-meeza");
  await history.getByRole("link", { name: /Receipt/ }).click();
  await page.waitForURL(/\/receipt\?id=/);
  await page.getByText("Meeza QR").first().waitFor();
  await v.shot("receipt-meeza");
  assert.deepEqual(v.problems, []);

  const admin = await visitor(browser, "methods-admin", { mobile: true });
  await signIn(admin.page, ADMIN, product.site);
  await admin.page.waitForURL(`${product.site}/admin`);
  await admin.page.getByRole("link", { name: DEMO_CLIENT.name }).first().click();
  await admin.page.waitForURL(/\/admin\/client\?id=/);
  await admin.page.getByText(/Meeza QR/).first().waitFor();
  await admin.shot("admin-client-meeza-390");
  assert.deepEqual(admin.problems, []);
});
