// Every way to pay (issue 22): the purchase dialog lists the package's methods (the coach's
// PayTabs profile, then Paymob's wallets and kiosks, in content/settings.yaml; instalments only
// from 9,000 EGP). A client pays with Meeza QR on PayTabs' page (the stand-in), with a mobile
// wallet on Paymob's (its stand-in: wallet number, then the code), by InstaPay (the admin
// confirms), and with a discount code; the receipt, the history and the admin's pages name the
// method. At 1366 and 390 px.
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
  assert.deepEqual(small, [
    "Card (Visa, Mastercard, Meeza)",
    "Meeza QR",
    "Apple Pay",
    "Mobile wallet (Vodafone Cash, Orange, Etisalat, WE)",
    "Cash at a Fawry or Aman kiosk",
    "InstaPay or bank transfer",
  ]);
  await page.keyboard.press("Escape");

  dialog = await openDialog(page, "Momentum Package");
  const labels = await choices(dialog).evaluateAll((els) => els.map((e) => e.labels[0].innerText.trim()));
  assert.deepEqual(labels, [
    "Card (Visa, Mastercard, Meeza)",
    "Meeza QR",
    "Apple Pay",
    "valU instalments",
    "Souhoola instalments",
    "NBE card instalments",
    "Mobile wallet (Vodafone Cash, Orange, Etisalat, WE)",
    "Cash at a Fawry or Aman kiosk",
    "InstaPay or bank transfer",
  ]);
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

test("a client pays with a mobile wallet on Paymob's checkout and the admin sees it", async () => {
  const v = await visitor(browser, "methods-wallet", { mobile: true });
  const { page } = v;
  await signIn(page, DEMO_CLIENT, product.site);
  await page.waitForURL(`${product.site}/dashboard`);
  const before = Number(await page.locator('dt:text-is("Available Credits") + dd').innerText());

  const dialog = await openDialog(page, "Momentum Package");
  await dialog.getByRole("radio", { name: /Mobile wallet/ }).check();
  await dialog.getByLabel("Phone Number").fill("+20 100 123 4567");
  await v.shot("dialog-wallet-390");
  await dialog.getByRole("button", { name: "Proceed to Payment" }).click();

  // Paymob's checkout (the stand-in): the wallet number, then the code sent to it.
  await page.getByLabel("Wallet number").waitFor({ timeout: 15_000 });
  assert.match(await page.locator("main").innerText(), /20250\.00 EGP/);
  await page.getByLabel("Wallet number").fill("01001234567");
  await page.getByRole("button", { name: "Pay with wallet" }).click();
  await page.getByLabel("Verification code").fill("424242");
  await v.shot("paymob-otp-390");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(/\/payment\/success\?cart_id=/, { timeout: 15_000 });
  await page.getByText("Payment Successful!").waitFor({ timeout: 15_000 });
  await v.shot("wallet-success-390");

  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  assert.equal(Number(await page.locator('dt:text-is("Available Credits") + dd').innerText()), before + 5);
  const history = page.locator(".client-payment").first();
  await history.getByText("Mobile wallet").waitFor();
  await history.getByRole("link", { name: /Receipt/ }).click();
  await page.waitForURL(/\/receipt\?id=/);
  await page.getByText("Mobile wallet").first().waitFor();
  await v.shot("receipt-wallet-390");
  assert.deepEqual(v.problems, []);

  // The admin's refund goes back through Paymob, and says so.
  const admin = await visitor(browser, "methods-wallet-admin");
  await signIn(admin.page, ADMIN, product.site);
  await admin.page.waitForURL(`${product.site}/admin`);
  await admin.page.getByRole("link", { name: DEMO_CLIENT.name }).first().click();
  await admin.page.waitForURL(/\/admin\/client\?id=/);
  const payments = admin.page.getByRole("region", { name: "Payments" });
  await payments.getByRole("row").filter({ hasText: "Mobile wallet" }).first().waitFor();
  // The newest payment is the wallet's: its refund button comes first.
  await payments.getByRole("button", { name: /^Refund the payment of 20,250\sEGP/ }).first().click();
  const refund = admin.page.getByRole("dialog", { name: "Refund this payment" });
  await refund.getByText(/the refund is sent to Paymob/).waitFor();
  await refund.getByLabel("Credits to remove").fill("1");
  await refund.getByLabel("Amount to refund (EGP)").fill("4050");
  assert.deepEqual(await axe(admin.page, '[role="dialog"]'), [], "axe on the Paymob refund dialog");
  await admin.shot("refund-wallet");
  await refund.getByRole("button", { name: /^Refund 4,050\sEGP and remove 1 credit$/ }).click();
  await admin.page.getByText("Refund completed").waitFor();
  const line = payments.getByRole("row").filter({ hasText: "Refund through Paymob" });
  await line.waitFor();
  assert.match((await line.innerText()).replace(/\s+/g, " "), /\u22124,050\sEGP/);
  await admin.shot("refunded-wallet");
  assert.deepEqual(admin.problems, []);
});

test("a client orders by InstaPay, the admin confirms the transfer, and the credits and receipt follow", async () => {
  const v = await visitor(browser, "methods-instapay");
  const { page } = v;
  await signIn(page, DEMO_CLIENT, product.site);
  await page.waitForURL(`${product.site}/dashboard`);
  const before = Number(await page.locator('dt:text-is("Available Credits") + dd').innerText());

  const dialog = await openDialog(page, "Momentum Package");
  await dialog.getByRole("radio", { name: "InstaPay or bank transfer" }).check();
  await dialog.getByLabel("Phone Number").fill("+20 100 123 4567");
  await dialog.getByRole("button", { name: "Place Order" }).click();
  await dialog.getByRole("heading", { name: "Send your transfer" }).waitFor();
  const details = await dialog.locator(".transfer-details").innerText();
  assert.match(details, /nadinekamel@instapay/);
  assert.match(details, /EG38 0019 0005 0000 0000 2631 8000 2/);
  assert.match(details, /20,250/);
  const reference = (await dialog.locator(".transfer-details__code").first().innerText()).trim();
  assert.match(reference, /^TR-[0-9A-Z]{6}$/);
  await v.shot("transfer-placed");
  assert.deepEqual(await axe(page, '[role="dialog"]'), [], "axe on the transfer's instructions");
  const mail = await product.mail.waitFor(DEMO_CLIENT.email, new RegExp(reference));
  assert.match(mail.text ?? "", /nadinekamel@instapay/);

  // The dashboard shows the order waiting; nothing is credited yet.
  await dialog.getByRole("link", { name: "Go to Dashboard" }).click();
  await page.waitForURL(`${product.site}/dashboard`);
  const waiting = page.getByRole("region", { name: "Waiting for your transfer" });
  await waiting.getByText(reference).waitFor();
  assert.equal(Number(await page.locator('dt:text-is("Available Credits") + dd').innerText()), before);
  await v.shot("dashboard-waiting");

  // The admin confirms it on the Payments tab, at 390 px.
  const admin = await visitor(browser, "methods-transfer-admin", { mobile: true });
  await signIn(admin.page, ADMIN, product.site);
  await admin.page.waitForURL(`${product.site}/admin`);
  await admin.page.getByRole("tab", { name: "Add Payment" }).click();
  const pending = admin.page.getByRole("region", { name: "Pending transfers" });
  await pending.getByText(reference, { exact: true }).first().waitFor();
  await admin.shot("pending-transfers-390");
  await pending.getByRole("button", { name: `Confirm ${reference}` }).click();
  const confirm = admin.page.getByRole("dialog", { name: `Confirm transfer ${reference}` });
  await confirm.getByLabel("Bank or InstaPay reference (optional)").fill("IPN-2611-0042");
  assert.deepEqual(await axe(admin.page, '[role="dialog"]'), [], "axe on the confirm dialog");
  await admin.shot("confirm-transfer-390");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await admin.page.getByText("Transfer confirmed").waitFor();
  await pending.getByText("No transfers are waiting.").waitFor();
  assert.deepEqual(admin.problems, []);

  await product.mail.waitFor(DEMO_CLIENT.email, /receipt/i);
  await page.reload({ waitUntil: "networkidle" });
  await page.getByRole("heading", { name: "Client Dashboard" }).waitFor();
  assert.equal(Number(await page.locator('dt:text-is("Available Credits") + dd').innerText()), before + 5);
  assert.equal(await page.getByRole("region", { name: "Waiting for your transfer" }).count(), 0);
  await page.locator(".client-payment").first().getByText("InstaPay").waitFor();
  await v.shot("dashboard-credited");
  assert.deepEqual(v.problems, []);
});

test("the admin creates a discount code and a client pays the discounted price with it", async () => {
  const admin = await visitor(browser, "methods-discount-admin");
  await signIn(admin.page, ADMIN, product.site);
  await admin.page.waitForURL(`${product.site}/admin`);
  await admin.page.getByRole("tab", { name: "Discount Codes" }).click();
  await admin.page.getByRole("button", { name: "New discount code" }).click();
  const form = admin.page.getByRole("dialog", { name: "New discount code" });
  await form.getByLabel("Code", { exact: true }).fill("ramadan15");
  await form.getByLabel("Percent off").fill("15");
  await form.getByLabel("Total uses").fill("10");
  assert.deepEqual(await axe(admin.page, '[role="dialog"]'), [], "axe on the new code's dialog");
  await admin.shot("new-code");
  await form.getByRole("button", { name: "Create code" }).click();
  await admin.page.getByText("Discount code RAMADAN15 created").waitFor();
  await admin.shot("codes");
  assert.deepEqual(admin.problems, []);

  const v = await visitor(browser, "methods-discount");
  const { page } = v;
  await signIn(page, DEMO_CLIENT, product.site);
  await page.waitForURL(`${product.site}/dashboard`);
  const dialog = await openDialog(page, "Momentum Package");
  await dialog.getByLabel("Phone Number").fill("+20 100 123 4567");
  const code = dialog.getByLabel("Discount code (optional)");
  await code.fill("NOPE");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await dialog.getByText("Unknown discount code").waitFor();
  // That 422 was the answer this step expects.
  v.problems.splice(0);
  await code.fill("ramadan15");
  await dialog.getByRole("button", { name: "Apply" }).click();
  // 15 % of 20,250 EGP is 3,037.50: the client pays 17,212.50.
  // (Intl puts a no-break space between an amount and its currency.)
  await dialog.getByText(/you pay 17,212\.50\sEGP instead of 20,250\sEGP/).waitFor();
  await v.shot("code-applied");
  assert.deepEqual(await axe(page, '[role="dialog"]'), [], "axe on the dialog with the code applied");
  await dialog.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: 15_000 });
  assert.match(await page.locator("main").innerText(), /17212\.50 EGP/);
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL(/\/payment\/success\?cart_id=/, { timeout: 15_000 });
  await page.getByText("Payment Successful!").waitFor({ timeout: 15_000 });

  await page.goto(product.site + "/dashboard", { waitUntil: "networkidle" });
  await page.locator(".client-payment").first().getByRole("link", { name: /Receipt/ }).click();
  await page.waitForURL(/\/receipt\?id=/);
  await page.getByText("Discount (RAMADAN15)").waitFor();
  assert.match(await page.locator("main").innerText(), /3,037\.50/);
  await v.shot("receipt-discount");
  assert.deepEqual(v.problems, []);
});
