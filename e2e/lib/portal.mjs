// What the portal's browser tests do again and again: sign in through /auth, call the API from
// the page as the islands do, and name a time in the coach's time zone.

/** Signs `who` in through the Sign In tab of /auth; with `site`, opens /auth first. */
export async function signIn(page, who, site) {
  if (site) await page.goto(site + "/auth", { waitUntil: "networkidle" });
  const panel = page.getByRole("tabpanel", { name: "Sign In" });
  await panel.getByLabel("Email", { exact: true }).fill(who.email);
  await panel.getByLabel("Password", { exact: true }).fill(who.password);
  await panel.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** A same-origin JSON call from the page, as the islands make it (set-up and checks only). */
export function call(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const r = await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: body && JSON.stringify(body) });
      return { status: r.status, body: await r.json() };
    },
    { method, path, body },
  );
}

/** Date and time `hours` from now in Cairo (the coach's time zone), as the API and the
 *  phone-booking form take them. */
export function cairo(hours) {
  const at = new Date(Date.now() + hours * 3600_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Cairo", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}
