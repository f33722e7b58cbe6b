// @vitest-environment happy-dom
// Issue 24's status page in a DOM, against a stand-in of the API: the System tab shows the
// checks with what to do about a failure, a refused webhook with its reason, a stuck email with
// the mail server's answer and a Retry that posts for that email, the jobs' last runs, the
// catalogue, and the ledger's verdict; in Arabic its words are Arabic.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SystemTab } from "../src/admin/SystemTab";
import { HAS_FIX } from "../src/admin/system/views";
import type { DoctorReport, LedgerReport, SystemView } from "../src/api/types";
import { loadMessages } from "../src/lib/i18n";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const VIEW: SystemView = {
  webhooks: [
    { provider: "paytabs", lastAt: "2026-12-03T13:05:00Z", lastOutcome: "refused", lastReason: "bad_signature", failuresInRow: 3, alertedAt: "2026-12-03T13:05:00Z" },
  ],
  refusals: [{ id: "r1", provider: "paytabs", receivedAt: "2026-12-03T13:05:00Z", outcome: "refused", reason: "bad_signature", detail: null }],
  outbox: [
    {
      id: "m1",
      toAddress: "mona@example.com",
      subject: "Confirm your email for Nadine Kamel Coaching",
      status: "pending",
      attempts: 2,
      createdAt: "2026-12-03T12:00:00Z",
      nextAttemptAt: "2026-12-03T13:10:00Z",
      lastError: "permanent error (550): 5.1.1 Mailbox unavailable",
    },
  ],
  canSendMail: true,
  jobs: [
    { job: "expiry_sweep", startedAt: "2026-12-03T13:00:00Z", finishedAt: "2026-12-03T13:00:01Z", outcome: "ok", items: 3, error: null, lastOkAt: "2026-12-03T13:00:01Z" },
    { job: "session_reminders", startedAt: "2026-12-03T13:00:00Z", finishedAt: "2026-12-03T13:00:01Z", outcome: "failed", items: null, error: "database is locked", lastOkAt: null },
  ],
  catalogue: { version: "c0ffee12", loadedAt: "2026-12-03T08:00:00Z", source: "https://coach.example.com/catalogue.json", failedAt: null, error: null },
};
const REPORT: DoctorReport = {
  checkedAt: "2026-12-03T13:06:00Z",
  failed: 1,
  checks: [
    { check: "database", status: "ok", code: "database_ok", values: { backend: "PostgreSQL", applied: "14" }, message: "PostgreSQL answers…", fix: null },
    {
      check: "smtp",
      status: "failed",
      code: "smtp_login_refused",
      values: { address: "smtp.example.com:587", error: "535 5.7.8 Authentication credentials invalid" },
      message: "SMTP login refused by smtp.example.com:587: 535 5.7.8 Authentication credentials invalid",
      fix: "Check SMTP_USERNAME / SMTP_PASSWORD",
    },
  ],
};
const LEDGER_OK: LedgerReport = { ok: true, accountsChecked: 4, accounts: [], lots: [], engagements: [] };

type Call = { url: string; method: string };
let calls: Call[];
let ledger: LedgerReport;
let root: Root | null;
let host: HTMLElement;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

beforeEach(() => {
  calls = [];
  ledger = LEDGER_OK;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      calls.push({ url, method });
      if (url === "/api/admin/system") return json(200, VIEW);
      if (url === "/api/admin/system/doctor") return json(200, REPORT);
      if (url === "/api/admin/system/ledger-verify") return json(200, ledger);
      if (url === "/api/admin/system/outbox/m1/retry") return json(200, { status: "sent", error: null });
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

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const button = (text: string) => [...host.querySelectorAll("button")].find((b) => b.textContent?.trim().startsWith(text))!;
const section = (title: string) => [...host.querySelectorAll("section")].find((s) => s.querySelector("h3")?.textContent === title)!;
async function open() {
  root = createRoot(host);
  act(() => root?.render(<SystemTab />));
  await settle();
  await settle();
}

describe("the System tab", () => {
  it("shows a failed check with what to do, a refused webhook and a stuck email, and Retry sends that email", async () => {
    await open();
    const checks = section("Checks");
    expect(checks.textContent).toContain("1 check failed");
    const smtp = [...checks.querySelectorAll("li")].find((li) => li.textContent?.includes("Email server (SMTP)"))!;
    expect(smtp.className).toContain("system-check--failed");
    expect(smtp.textContent).toContain("SMTP login refused by smtp.example.com:587: 535 5.7.8 Authentication credentials invalid");
    expect(smtp.textContent).toContain("What to do: Check SMTP_USERNAME / SMTP_PASSWORD");

    const webhooks = section("Webhooks");
    expect(webhooks.textContent).toContain("Bad signature: not signed with our key");
    expect(webhooks.textContent).toMatch(/You were emailed Dec 03, 2026, 3:05/);

    const outbox = section("Emails not sent");
    const row = outbox.querySelector("tbody tr")!;
    expect(row.textContent).toContain("mona@example.com");
    expect(row.textContent).toContain("5.1.1 Mailbox unavailable");
    expect(row.textContent).toContain("Waiting");
    await act(async () => button("Retry").dispatchEvent(new MouseEvent("click", { bubbles: true })));
    await settle();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.url)).toContain("/api/admin/system/outbox/m1/retry");
    expect(calls.filter((c) => c.url === "/api/admin/system").length).toBe(2);

    const jobs = section("Scheduled jobs");
    expect(jobs.textContent).toContain("Expiry sweep");
    expect(jobs.textContent).toContain("3 credits expired");
    expect(jobs.textContent).toContain("database is locked");
    expect(jobs.textContent).toContain("Never");
    expect(section("Catalogue").textContent).toContain("Version c0ffee12, loaded Dec 03, 2026");
  });

  it("verifies the ledger on request and names what differs", async () => {
    await open();
    expect(calls.some((c) => c.url.endsWith("ledger-verify"))).toBe(false);
    await act(async () => button("Verify ledger").dispatchEvent(new MouseEvent("click", { bubbles: true })));
    await settle();
    expect(section("Credit ledger").textContent).toContain("4 accounts checked: every account equals its ledger");
    ledger = {
      ok: false,
      accountsChecked: 4,
      accounts: [{ userId: "u1", clientName: "Mona Adel", totalCredits: 3, usedCredits: 0, availableCredits: 3, ledgerTotal: 0, ledgerUsed: 0, lotsRemaining: 0 }],
      lots: [],
      engagements: [],
    };
    await act(async () => button("Verify ledger").dispatchEvent(new MouseEvent("click", { bubbles: true })));
    await settle();
    const text = section("Credit ledger").textContent;
    expect(text).toContain("1 difference from the ledger:");
    expect(text).toContain("Mona Adel: 3 credits recorded (0 used, 3 available); the ledger says 0 (0 used); its lots hold 0");
  });

  it("speaks Arabic on an Arabic page, the providers' own words kept as they are", async () => {
    document.documentElement.lang = "ar";
    await loadMessages(["admin", "adminDashboard", "system"], "ar");
    await open();
    expect(host.querySelector("h2")?.textContent).toBe("النظام");
    expect(host.textContent).toContain("رفض smtp.example.com:587 تسجيل الدخول إلى SMTP: 535 5.7.8 Authentication credentials invalid");
    expect(host.textContent).toContain("توقيع غير صحيح");
    expect(host.textContent).toContain("إعادة المحاولة");
    expect(host.textContent).not.toContain("Retry");
  });
});

describe("the checks' words", () => {
  it("are in both catalogues for every finding, with a fix exactly where the API gives one", async () => {
    for (const l of ["en", "ar"] as const) {
      const catalogue = (await import(`../src/i18n/${l}/system.json`)).default as Record<string, string>;
      for (const [code, hasFix] of Object.entries(HAS_FIX)) {
        expect(catalogue[`admin.system.check.${code}`], `${l}: ${code}`).toBeTruthy();
        expect(`admin.system.fix.${code}` in catalogue, `${l}: fix of ${code}`).toBe(hasFix);
      }
    }
  });
});
