// The coach's status page (issue 24): a Calendly webhook refused for its signature and an email
// the mail server keeps refusing show on Admin -> System with their reasons; once the mailbox
// takes mail again, Retry sends the email and it arrives. The checks of `api doctor` pass
// against the stand-ins. At 1280 and 390 px, and in Arabic; axe on each.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { call, signIn } from "../lib/portal.mjs";

const STUCK = "stuck.mailbox@example.com";

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

/** Polls the status page's API from `page` until `ready` says yes (20 s at most). */
async function systemUntil(page, ready) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { status, body } = await call(page, "GET", "/api/admin/system");
    assert.equal(status, 200);
    if (ready(body)) return body;
    if (Date.now() > deadline) throw new Error(`the status page never showed it: ${JSON.stringify(body)}`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}

async function openSystem(page) {
  await page.goto(`${product.site}/admin`, { waitUntil: "networkidle" });
  await page.getByRole("tab", { name: "System" }).click();
  await page.getByRole("heading", { name: "Webhooks", exact: true }).waitFor();
}

test("a refused webhook and a stuck email show on the status page, and Retry sends the email", async () => {
  // ---- a new client's confirmation email, which the mailbox refuses for now
  product.mail.refuse(STUCK);
  const stranger = await visitor(browser, "system-signup");
  await stranger.page.goto(`${product.site}/auth`, { waitUntil: "networkidle" });
  const signUp = await call(stranger.page, "POST", "/api/auth/sign-up", {
    full_name: "Karim Said",
    email: STUCK,
    password: "nile-sunrise-42",
    phone: "+20 100 555 0101",
  });
  assert.equal(signUp.status, 201, JSON.stringify(signUp.body));
  await stranger.context.close();

  // ---- a webhook "from Calendly" signed with a key that is not ours
  const forged = await fetch(`${product.site}/api/webhooks/calendly`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Calendly-Webhook-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
    body: JSON.stringify({ event: "invitee.created", payload: { uri: "https://api.calendly.com/scheduled_events/X/invitees/Y" } }),
  });
  assert.equal(forged.status, 401);

  // ---- the coach opens System
  const admin = await visitor(browser, "system-admin");
  const a = admin.page;
  await signIn(a, ADMIN, product.site);
  await a.waitForURL(`${product.site}/admin`);
  await systemUntil(a, (v) => v.outbox.some((m) => m.toAddress === STUCK && m.lastError));
  await openSystem(a);

  const refusals = a.getByRole("region", { name: "Webhooks not applied" });
  const refused = refusals.getByRole("row").filter({ hasText: "Calendly" });
  await refused.getByText("Refused").waitFor();
  await refused.getByText("Bad signature: not signed with our key").waitFor();
  const last = a.getByRole("region", { name: "Last webhook from each provider" }).getByRole("row").filter({ hasText: "Calendly" });
  assert.match(await last.innerText(), /Refused[\s\S]*\b1\s*$/);

  // The section and its table are both named by the heading: the table is the inner one.
  const outbox = a.getByRole("region", { name: "Emails not sent" }).last();
  const stuck = outbox.getByRole("row").filter({ hasText: STUCK });
  await stuck.getByText("Waiting").waitFor();
  await stuck.getByText(/Mailbox busy, try again later/).waitFor();
  assert.match(await stuck.innerText(), /Confirm your email/);

  // The checks of `api doctor`, against the stand-ins and the harness's mail server.
  const checks = a.getByRole("region", { name: "Checks" });
  await checks.getByText("Every check passed").waitFor({ state: "attached", timeout: 20_000 });
  for (const name of ["Database", "Email server (SMTP)", "PayTabs", "Calendly", "Catalogue", "Clock"]) {
    await checks.getByRole("listitem").filter({ hasText: name }).getByText("OK", { exact: true }).waitFor();
  }
  await admin.shot("system-1280");
  assert.deepEqual(await axe(a), [], "axe on System at 1280 px");

  // ---- the same page on a phone
  const phone = await visitor(browser, "system-390", { mobile: true });
  await signIn(phone.page, ADMIN, product.site);
  await phone.page.waitForURL(`${product.site}/admin`);
  await openSystem(phone.page);
  await phone.page.getByRole("region", { name: "Webhooks not applied" }).getByText("Bad signature: not signed with our key").waitFor();
  await phone.page.getByRole("region", { name: "Emails not sent" }).last().getByRole("row").filter({ hasText: STUCK }).waitFor();
  await phone.page.getByRole("region", { name: "Checks" }).getByText("Every check passed").waitFor({ state: "attached", timeout: 20_000 });
  await phone.shot("system-390");
  assert.deepEqual(await axe(phone.page), [], "axe on System at 390 px");
  assert.deepEqual(phone.problems, []);

  // ---- the mailbox takes mail again: Retry sends it now
  product.mail.refuse(STUCK, false);
  await stuck.getByRole("button", { name: `Retry the email to ${STUCK}` }).click();
  await a.getByText(`Email sent to ${STUCK}`).first().waitFor();
  const mail = await product.mail.waitFor(STUCK, /Confirm your email/);
  assert.match(mail.text ?? "", /\/auth\/confirm/);
  await stuck.waitFor({ state: "detached" });
  await admin.shot("system-after-retry");
  assert.deepEqual(admin.problems, []);

  // ---- in Arabic
  await a.goto(`${product.site}/ar/admin#system`, { waitUntil: "networkidle" });
  await a.getByRole("heading", { name: "الإشعارات الواردة" }).waitFor();
  await a.getByRole("region", { name: "إشعارات لم تُطبَّق" }).getByText("توقيع غير صحيح: غير موقّع بمفتاحنا").waitFor();
  await a.getByRole("region", { name: "الفحوصات" }).getByText("نجحت جميع الفحوصات").waitFor({ state: "attached", timeout: 20_000 });
  await admin.shot("system-arabic");
  assert.deepEqual(await axe(a), [], "axe on System in Arabic");
  assert.deepEqual(admin.problems, []);
});
