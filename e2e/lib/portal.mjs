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

/** `day` (YYYY-MM-DD) plus `months` calendar months, as the API counts a lot's validity: the
 *  same day, or the month's last day when it has no such day (Nov 30 + 3 → Feb 28). */
export function plusMonths(day, months) {
  const [y, m, d] = day.split("-").map(Number);
  const last = new Date(Date.UTC(y, m + months, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

/** "2027-02-23" → "Feb 23, 2027", as the portal writes days. */
export function shownDay(day) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "2-digit", year: "numeric", timeZone: "UTC" });
}
