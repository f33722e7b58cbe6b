// @vitest-environment happy-dom
// Issue 23 in a DOM, against a stand-in of the API: the Sponsors tab lists the sponsors, opens
// one, creates an engagement with its executives (the pool left live, the rows checked before
// sending, the body the API takes) and a report link shown once; the public invoice page thanks
// a payer PayTabs brought back once the invoice reads paid, and offers Pay now while it is due;
// the report page shows its rows and the API's refusal.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientRow } from "../src/api/types";
import { SponsorsTab } from "../src/admin/SponsorsTab";
import type { EngagementView, InvoiceView, SponsorView } from "../src/sponsors/types";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const money = (minor: number) => ({ minor, currency: "EGP" });
const NILE: SponsorView = {
  id: "s1",
  name: "Nile Pharma",
  contactName: "Rana Fathy",
  language: "en",
  contactEmail: "rana@nilepharma.example",
  contactPhone: null,
  address: null,
  taxId: null,
  notes: null,
  archivedAt: null,
  createdAt: "2026-11-25T10:00:00Z",
  executives: [{ clientId: "c1", name: "Mona Adel", email: "client@coach.example.com" }],
  engagementCount: 0,
};
const INVOICE: InvoiceView = {
  id: "i1",
  number: "INV-000001",
  status: "sent",
  issuedOn: "2026-11-25",
  dueOn: "2026-12-09",
  currency: "EGP",
  lines: [{ description: "Leadership programme 2027: 20 coaching sessions", quantity: 20, unitPrice: money(101250), amount: money(2025000) }],
  subtotal: money(2025000),
  vatRate: 14,
  vat: money(283500),
  total: money(2308500),
  paidAt: null,
  paidVia: null,
  bankReference: null,
  payUrl: "https://site/invoice?token=tok",
  sponsor: { name: "Nile Pharma", contactName: "Rana Fathy", contactEmail: "rana@nilepharma.example", contactPhone: null, address: "Cairo", taxId: "123-456-789" },
  business: { name: "Coach Ltd", address: "Zamalek, Cairo", taxId: null },
};
const ENGAGEMENT: EngagementView = {
  id: "e1",
  sponsorId: "s1",
  sponsorName: "Nile Pharma",
  title: "Leadership programme 2027",
  credits: 20,
  allocated: 6,
  pool: 14,
  price: money(2025000),
  validityMonths: 12,
  startsOn: "2026-12-01",
  released: false,
  releasedAt: null,
  createdAt: "2026-11-25T10:00:00Z",
  members: [],
  moves: [],
  invoice: INVOICE,
};
const CLIENTS = [{ user_id: "c1", full_name: "Mona Adel", email: "client@coach.example.com" }] as ClientRow[];

type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let answer: (url: string, method: string) => Response | undefined;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

let root: Root | null;
let host: HTMLElement;
beforeEach(() => {
  calls = [];
  answer = () => undefined;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const mine = answer(url, method);
      if (mine) return mine;
      if (url === "/api/admin/sponsors") return json(200, { sponsors: [NILE] });
      if (url === "/api/admin/engagements?sponsorId=s1") return json(200, { engagements: [] });
      if (url === "/api/admin/sponsors/s1/report-links" && method === "GET") return json(200, { links: [] });
      if (url === "/api/admin/sponsors/s1/report-links") {
        return json(201, { id: "l1", url: "https://site/sponsor-report?token=secret", createdAt: "2026-11-25T10:00:00Z", expiresAt: "2026-12-25T10:00:00Z", revokedAt: null });
      }
      if (url === "/api/admin/engagements" && method === "POST") return json(201, ENGAGEMENT);
      return json(404, { error: { code: "not_found", message: "No such API route" } });
    }),
  );
  host = document.createElement("div");
  document.body.append(host);
  root = null;
});
afterEach(() => {
  if (root) act(() => root?.unmount());
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  document.documentElement.lang = "";
});

const settle = (ms = 0) => act(async () => new Promise((r) => setTimeout(r, ms)));
const button = (text: string, within: ParentNode = document) => [...within.querySelectorAll("button")].find((b) => b.textContent?.trim().startsWith(text))!;
async function click(el: Element) {
  await act(async () => el.dispatchEvent(new MouseEvent("click", { bubbles: true })));
  await settle();
}
async function type(el: HTMLInputElement | HTMLSelectElement, value: string) {
  await act(async () => {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  });
  await settle();
}
const labelled = <T extends HTMLElement>(within: ParentNode, label: string): T[] =>
  [...within.querySelectorAll("label")].filter((l) => l.textContent === label).map((l) => document.getElementById(l.htmlFor) as T);
async function submit(form: HTMLFormElement) {
  await act(async () => form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })));
  await settle();
  await settle();
}

describe("the Sponsors tab", () => {
  async function openNile() {
    root = createRoot(host);
    act(() => root?.render(<SponsorsTab clients={CLIENTS} />));
    await settle();
    await settle();
    const row = host.querySelector("tbody tr")!;
    expect([...row.children].slice(0, 5).map((c) => c.textContent)).toEqual(["Nile Pharma", "Rana Fathyrana@nilepharma.example", "1 executiveMona Adel", "0", "Active"]);
    await click(button("Open", row));
    await settle();
    expect(host.querySelector("h2")?.textContent?.trim()).toBe("Nile Pharma");
  }

  it("creates an engagement: the pool left live, the rows checked, the body the API takes", async () => {
    await openNile();
    expect(host.textContent).toContain("No engagements yet");
    await click(button("New engagement"));
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(dialog.querySelector("h2")?.textContent).toBe("New engagement");
    await type(labelled<HTMLInputElement>(dialog, "Title")[0]!, "Leadership programme 2027");
    await type(labelled<HTMLInputElement>(dialog, "Credits")[0]!, "10");
    await type(labelled<HTMLInputElement>(dialog, "Price (EGP)")[0]!, "20250");
    expect(dialog.textContent).toContain("10 credits left in the pool");

    await click(button("Add executive", dialog));
    await click(button("Add executive", dialog));
    const [who1, who2] = labelled<HTMLSelectElement>(dialog, "Executive");
    expect(document.activeElement).toBe(who2);
    await type(who1!, "c1");
    await type(who2!, "invite");
    await type(labelled<HTMLInputElement>(dialog, "Email to invite")[0]!, "karim@example.com");
    const [credits1, credits2] = labelled<HTMLInputElement>(dialog, "Credits").slice(1);
    await type(credits1!, "6");
    await type(credits2!, "6");
    expect(dialog.textContent).toContain("2 credits more than the engagement has");

    await submit(dialog.querySelector("form")!);
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    expect(dialog.querySelector("fieldset")?.textContent).toContain("The executives' credits add up to more than the engagement's");

    await type(credits2!, "4");
    expect(dialog.textContent).toContain("0 credits left in the pool");
    await submit(dialog.querySelector("form")!);
    const sent = calls.find((c) => c.method === "POST" && c.url === "/api/admin/engagements");
    expect(sent?.body).toEqual({
      sponsorId: "s1",
      title: "Leadership programme 2027",
      credits: 10,
      price: "20250",
      validityMonths: 12,
      startsOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      dueDays: 14,
      members: [
        { clientId: "c1", credits: 6 },
        { email: "karim@example.com", credits: 4 },
      ],
    });
    expect(host.querySelector("tbody")?.textContent).toContain("Leadership programme 2027");
    expect(host.querySelector("tbody")?.textContent).toContain("INV-000001");
  });

  it("puts the API's refusal of a sponsor on its field", async () => {
    answer = (url, method) =>
      url === "/api/admin/sponsors" && method === "POST"
        ? json(422, { error: { code: "validation_error", message: "Please check the form", fields: { taxId: "Enter the 9-digit tax registration number" } } })
        : undefined;
    root = createRoot(host);
    act(() => root?.render(<SponsorsTab clients={CLIENTS} />));
    await settle();
    await click(button("New sponsor"));
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    await type(labelled<HTMLInputElement>(dialog, "Company name")[0]!, "Delta Bank");
    await type(labelled<HTMLInputElement>(dialog, "Billing contact name")[0]!, "Omar Nabil");
    await type(labelled<HTMLInputElement>(dialog, "Billing contact email")[0]!, "omar@delta.example");
    await submit(dialog.querySelector("form")!);
    const tax = labelled<HTMLInputElement>(dialog, "Tax registration number")[0]!;
    expect(document.getElementById(`${tax.id}-error`)?.textContent).toBe("Enter the 9-digit tax registration number");
    expect(tax.getAttribute("aria-invalid")).toBe("true");
  });

  it("shows a new report link once, with Copy link", async () => {
    await openNile();
    await submit(host.querySelector<HTMLFormElement>(".sponsors-link-form")!);
    expect(calls.find((c) => c.url === "/api/admin/sponsors/s1/report-links" && c.method === "POST")?.body).toEqual({ days: 30 });
    const input = labelled<HTMLInputElement>(host, "Report link")[0]!;
    expect(input.value).toBe("https://site/sponsor-report?token=secret");
    expect(button("Copy link", host)).toBeTruthy();
    expect(button("Revoke", host)?.textContent).toContain("the link created");
  });
});

describe("an engagement's page", () => {
  it("gives credits from the pool no larger than it, and handles the invoice", async () => {
    const withMona = { ...ENGAGEMENT, members: [{ id: "m1", clientId: "c1", name: "Mona Adel", email: "client@coach.example.com", credits: 6, granted: 0, used: 0, remaining: 6, joined: true }] };
    answer = (url, method) => {
      if (url === "/api/admin/engagements?sponsorId=s1") return json(200, { engagements: [withMona] });
      if (url === "/api/admin/engagements/e1") return json(200, withMona);
      if (url === "/api/admin/invoices/i1/send") return json(200, INVOICE);
      if (url === "/api/admin/invoices/i1/mark-paid") return json(200, { ...INVOICE, status: "paid", paidAt: "2026-11-26T09:00:00Z", paidVia: "transfer", bankReference: "TRX-77" });
      if (url === "/api/admin/engagements/e1/allocate" && method === "POST") return json(200, withMona);
      return undefined;
    };
    root = createRoot(host);
    act(() => root?.render(<SponsorsTab clients={CLIENTS} />));
    await settle();
    await click(button("Open", host.querySelector("tbody tr")!));
    await settle();
    await click(button("Manage", host));
    await settle();
    expect(host.querySelector("h2")?.textContent?.trim()).toBe("Leadership programme 2027");
    expect(document.activeElement).toBe(host.querySelector("h2"));
    expect([...host.querySelectorAll(".sponsors-figures dd")].map((d) => d.textContent)).toEqual(["20", "6", "14", "20,250\u00a0EGP"]);
    expect(button("Release credits now (on credit)", host)).toBeTruthy();

    await click(button("Give credits from the pool", host));
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    await type(labelled<HTMLSelectElement>(dialog, "Executive")[0]!, "c1");
    await type(labelled<HTMLInputElement>(dialog, "Credits")[0]!, "15");
    await submit(dialog.querySelector("form")!);
    expect(dialog.textContent).toContain("Only 14 credits are left in the pool");
    await type(labelled<HTMLInputElement>(dialog, "Credits")[0]!, "2");
    await submit(dialog.querySelector("form")!);
    expect(calls.find((c) => c.url === "/api/admin/engagements/e1/allocate")?.body).toEqual({ clientId: "c1", credits: 2 });

    expect(button("Send again", host)).toBeTruthy();
    await click(button("Send again", host));
    expect(calls.at(-1)).toMatchObject({ url: "/api/admin/invoices/i1/send", method: "POST" });
    expect(host.querySelector('a[href="https://site/invoice?token=tok"]')?.textContent).toContain("Open invoice");

    await click(button("Mark paid", host));
    const paid = document.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(paid.querySelector("h2")?.textContent).toBe("Mark invoice INV-000001 paid");
    await type(labelled<HTMLInputElement>(paid, "Bank reference")[0]!, "TRX-77");
    await submit(paid.querySelector("form")!);
    expect(calls.find((c) => c.url === "/api/admin/invoices/i1/mark-paid")?.body).toEqual({ bankReference: "TRX-77" });
    // Paid: the engagement is read again (the executives' credits changed).
    expect(calls.at(-1)).toMatchObject({ url: "/api/admin/engagements/e1", method: "GET" });
  });
});

/** Waits, up to 5 s, until `found` answers something: the island loads its data and its messages
 * (another language's are a dynamic import) at the machine's pace, not a fixed delay's. */
async function until<T>(found: () => T | null | undefined | false): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = found();
    if (value) return value;
    await settle(50);
  }
  throw new Error(`not found in 5 s: ${found}`);
}

/** Mounts a public island as the runtime does, at `url`. */
async function mountAt(island: "Invoice" | "SponsorReport", url: string): Promise<HTMLElement> {
  window.history.replaceState(null, "", url);
  vi.resetModules();
  const { mount } = await import(`../src/islands/${island}.tsx`);
  const el = document.createElement("div");
  document.body.append(el);
  await act(async () => mount(el, {}));
  await settle(20);
  await settle(20);
  return el;
}

describe("the public invoice page", () => {
  it("waits for the payment PayTabs just took, then thanks the payer", async () => {
    // The first two reads (React's strict mode runs the effect twice) find it sent, then paid.
    let reads = 0;
    answer = (url) => (url === "/api/invoices/by-token/tok" ? json(200, { ...INVOICE, status: ++reads > 2 ? "paid" : "sent", paidAt: "2026-11-26T09:00:00Z" }) : undefined);
    const el = await mountAt("Invoice", "/invoice?token=tok&paid=1");
    expect(el.textContent).toContain("Confirming your payment…");
    for (let i = 0; i < 30 && !el.textContent?.includes("Thank you, your payment was received"); i++) await settle(100);
    expect(el.textContent).toContain("Thank you, your payment was received.");
    expect(el.textContent).not.toContain("Pay now");
    expect(el.querySelector(".invoice__status")?.textContent).toBe("Paid");
  });

  it("shows the lines, VAT and total, and Pay now while it is due", async () => {
    answer = (url, method) => {
      if (url === "/api/invoices/by-token/tok") return json(200, INVOICE);
      if (method === "POST") return json(409, { error: { code: "conflict", message: "This invoice is already paid" } });
      return undefined;
    };
    const el = await mountAt("Invoice", "/invoice?token=tok");
    expect((await until(() => el.querySelector("h2")))?.textContent).toBe("Invoice INV-000001");
    const totals = [...el.querySelectorAll(".invoice__totals dt")].map((d) => d.textContent);
    expect(totals).toEqual(["Subtotal", "VAT (14%)", "Total"]);
    expect(el.querySelector(".receipt__row--total dd")?.textContent).toBe("23,085\u00a0EGP");
    await click(button("Pay now", el));
    expect(calls.at(-1)).toMatchObject({ url: "/api/invoices/by-token/tok/pay", method: "POST" });
    expect(button("Print or save as PDF", el)).toBeTruthy();
  });

  it("says so when the invoice is not found", async () => {
    const el = await mountAt("Invoice", "/invoice?token=nope");
    expect((await until(() => el.querySelector('[role="alert"]')))?.textContent).toContain("Invoice not found");
  });
});

describe("the sponsor's report page", () => {
  it("shows each executive's sessions and the CSV link", async () => {
    answer = (url) =>
      url === "/api/sponsor-reports/tok"
        ? json(200, {
            sponsor: "Nile Pharma",
            generatedAt: "2026-11-25T10:00:00Z",
            expiresAt: "2026-12-25T10:00:00Z",
            executives: [
              { name: "Mona Adel", engagement: "Leadership programme 2027", credits: 6, used: 1, remaining: 5, pastSessions: ["2026-11-20"], upcomingSessions: ["2026-12-03"] },
            ],
          })
        : undefined;
    const el = await mountAt("SponsorReport", "/sponsor-report?token=tok");
    await until(() => el.querySelector("tbody tr"));
    const cells = [...el.querySelectorAll("tbody tr > *")].map((c) => c.textContent);
    expect(cells).toEqual(["Mona Adel", "Leadership programme 2027", "6", "1", "5", "Nov 20, 2026", "Dec 03, 2026"]);
    expect(el.querySelector("a[download]")?.getAttribute("href")).toBe("/api/sponsor-reports/tok/csv");
  });

  it("shows the API's word on a link that no longer works, in Arabic on an Arabic page", async () => {
    answer = (url) => (url === "/api/sponsor-reports/old" ? json(404, { error: { code: "not_found", message: "This report link is not valid, has expired or was revoked" } }) : undefined);
    document.documentElement.lang = "ar";
    const el = await mountAt("SponsorReport", "/ar/sponsor-report?token=old");
    expect((await until(() => el.querySelector('[role="alert"]')))?.textContent).toBe("رابط التقرير هذا غير صالح، أو انتهت صلاحيته، أو أُبطل");
  });
});
