// Credits that expire (issue 14): the admin records an offline payment of 2 credits valid for
// 3 months for the demo client, and the client's dashboard says when they expire.
// (A refund on the PayTabs stand-in is covered by the API suite, `lots::a_paytabs_refund_…`;
// the refund dialog is tested in admin-credits.test.mjs.)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, DEMO_CLIENT, startProduct } from "../lib/product.mjs";
import { axe, launch, visitor } from "../lib/browser.mjs";
import { cairo, plusMonths, shownDay as shown, signIn } from "../lib/portal.mjs";

const CLIENT = DEMO_CLIENT;

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

test("the dashboard says how many credits expire, and when", async () => {
  const admin = await visitor(browser, "lots-admin");
  await signIn(admin.page, ADMIN, product.site);
  await admin.page.waitForURL("**/admin");
  // Paid today on the coach's calendar (Cairo), as the Add Payment form sends it.
  const paid = cairo(0).date;
  const recorded = await admin.page.evaluate(async ([email, today]) => {
    const clients = await (await fetch(`/api/admin/clients?search=${encodeURIComponent(email)}`)).json();
    const r = await fetch("/api/admin/payments", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ clientId: clients[0].user_id, amount: 2000, sessionsPurchased: 2, paymentDate: today, paymentMethod: "cash", validityMonths: 3 }),
    });
    return { status: r.status, body: await r.json() };
  }, [CLIENT.email, paid]);
  assert.equal(recorded.status, 201, JSON.stringify(recorded.body));

  for (const mobile of [false, true]) {
    const client = await visitor(browser, `lots-client${mobile ? "-390" : ""}`, { mobile });
    await signIn(client.page, CLIENT, product.site);
    await client.page.waitForURL("**/dashboard");
    const line = client.page.locator(".client-credits__expiry");
    await line.waitFor();
    // The last day is the payment's day 3 months on, on any day of the year (Nov 30 → Feb 28).
    const text = (await line.textContent()).replace(/\s+/g, " ").trim();
    assert.match(text, /^2 credits expire on /, text);
    const last = shown(plusMonths(paid, 3));
    assert.ok(text.endsWith(last), `${text} should end with ${last}`);
    assert.deepEqual(await axe(client.page, ".client-credits"), [], "axe on the credits card");
    await client.shot("dashboard-expiry");
  }
});
