// Issue 23's rules and words without a browser: the Sponsors tab's forms (the API's rules
// checked before sending, each message on its field; the bodies sent; the pool left as the
// executives' credits are typed), the invoice's actions by status, the public invoice and
// report pages' logic (pay, wait for a payment, session days in the page's language), the
// client dashboard's sponsored note, the client page's engagement lots, and the API's new
// messages in Arabic.
import { describe, expect, it } from "vitest";
import { sponsorsOf } from "../src/admin/ClientsTable";
import { ledgerKind, lotSource, engagementOf } from "../src/admin/client/views";
import {
  type EngagementValues,
  INVITE,
  type MemberValues,
  type SponsorValues,
  allocateIssues,
  engagementDefaults,
  engagementIssues,
  engagementSchema,
  moveIssues,
  poolLeft,
  reportLinkSchema,
  sponsorDefaults,
  sponsorSchema,
} from "../src/admin/sponsors/rules";
import { canRelease, invoiceActions, invoiceStatusLabel, linkState, releaseState } from "../src/admin/sponsors/views";
import { sponsoredOf, sponsoredText } from "../src/client/CreditsCard";
import { apiTexts } from "../src/lib/api-texts";
import { loadMessages } from "../src/lib/i18n";
import { canPay, pageParams, paymentNote, reportDays, shouldPoll } from "../src/sponsors/public";
import type { EngagementMember } from "../src/sponsors/types";

/** The issues as "path: message", as the form shows them on their fields. */
const said = (issues: { path: (string | number)[]; message: string }[]) => Object.fromEntries(issues.map((i) => [i.path.join("."), i.message]));

const member = (m: Partial<MemberValues>): MemberValues => ({ who: "client-1", email: "", credits: "5", ...m });
const engagement = (f: Partial<EngagementValues>): EngagementValues => ({
  ...engagementDefaults("2026-12-01", 12),
  title: "Leadership programme 2027",
  credits: "20",
  price: "20250",
  ...f,
});

describe("the sponsor form", () => {
  const valid: SponsorValues = { ...sponsorDefaults(), name: " Nile Pharma ", contactName: "Rana Fathy", contactEmail: "rana@nilepharma.example" };

  it("sends the company with its empty optional fields as null", () => {
    const r = sponsorSchema.safeParse({ ...valid, taxId: "123-456-789" });
    expect(r.success && r.data).toEqual({
      name: "Nile Pharma",
      contactName: "Rana Fathy",
      contactEmail: "rana@nilepharma.example",
      contactPhone: null,
      address: null,
      taxId: "123-456-789",
      notes: null,
    });
  });

  it("says what is missing, in the API's words, on each field", () => {
    const r = sponsorSchema.safeParse({ ...sponsorDefaults(), contactEmail: "rana@", taxId: "12345678" });
    expect(r.success).toBe(false);
    expect(Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]))).toEqual({
      name: "Company name is required",
      contactName: "Billing contact name is required",
      contactEmail: "Invalid email address",
      taxId: "Enter the 9-digit tax registration number",
    });
    for (const taxId of ["123456789", "123 456 789", "123-456-789", ""]) expect(sponsorSchema.safeParse({ ...valid, taxId }).success, taxId).toBe(true);
  });
});

describe("the New engagement form", () => {
  it("counts the pool left as the executives' credits are typed", () => {
    expect(poolLeft({ credits: "20", members: [] })).toBe(20);
    expect(poolLeft({ credits: "20", members: [member({ credits: "6" }), member({ credits: "6" })] })).toBe(8);
    // A row still being typed counts nothing; too many credits make the pool negative.
    expect(poolLeft({ credits: "20", members: [member({ credits: "" }), member({ credits: "abc" })] })).toBe(20);
    expect(poolLeft({ credits: "10", members: [member({ credits: "6" }), member({ credits: "6" })] })).toBe(-2);
    expect(poolLeft({ credits: "", members: [member({ credits: "6" })] })).toBeNull();
  });

  it("refuses executives' credits that add up to more than the engagement's", () => {
    const f = engagement({ credits: "10", members: [member({ who: "a", credits: "6" }), member({ who: "b", credits: "5" })] });
    expect(said(engagementIssues(f))).toEqual({ members: "The executives' credits add up to more than the engagement's" });
    // Exactly the engagement's credits is fine: the pool is then empty.
    expect(engagementIssues({ ...f, credits: "11" })).toEqual([]);
  });

  it("puts the list's message before its rows', so neither replaces the other", () => {
    const f = engagement({ credits: "4", members: [member({ who: "a", credits: "5" }), member({ who: "", credits: "1" })] });
    expect(engagementIssues(f).map((i) => i.path.join("."))).toEqual(["members", "members.1.who"]);
  });

  it("checks every row: someone chosen, a real email to invite, credits, nobody twice", () => {
    const f = engagement({
      members: [
        member({ who: "", credits: "1" }),
        member({ who: INVITE, email: "not-an-email", credits: "1" }),
        member({ who: "client-1", credits: "0" }),
        member({ who: "client-1", credits: "1" }),
        member({ who: INVITE, email: "new@example.com", credits: "1" }),
        member({ who: INVITE, email: " NEW@example.com ", credits: "1" }),
      ],
    });
    expect(said(engagementIssues(f))).toEqual({
      "members.0.who": "Choose a client, or invite by email",
      "members.1.email": "Invalid email address",
      "members.2.credits": "Give 1 to 1000 credits",
      "members.3.who": "This executive is already listed",
      "members.5.email": "This executive is already listed",
    });
  });

  it("checks the engagement's own fields as the API does", () => {
    expect(said(engagementIssues(engagement({ title: " ", credits: "0", price: "10.005", validityMonths: "61", startsOn: "2026-02-30", dueDays: "366" })))).toEqual({
      title: "Title is required",
      credits: "Credits must be 1 to 1000",
      price: "Price must be 0 or more, in steps of 0.01",
      validityMonths: "Validity must be 1 to 60 months",
      startsOn: "Give a start date",
      dueDays: "Due in must be 0 to 365 days",
    });
    expect(engagementIssues(engagement({ credits: "1000", price: "0", validityMonths: "60", dueDays: "0" }))).toEqual([]);
    expect(said(engagementIssues(engagement({ credits: "1001" })))).toEqual({ credits: "Credits must be 1 to 1000" });
    expect(said(engagementIssues(engagement({ credits: "2.5" })))).toEqual({ credits: "Credits must be 1 to 1000" });
  });

  it("starts with the invoice due in 14 days and the settings' validity", () => {
    const d = engagementDefaults("2026-12-01", 6);
    expect(d).toMatchObject({ dueDays: "14", validityMonths: "6", startsOn: "2026-12-01", members: [] });
    expect(engagementDefaults("2026-12-01", null).validityMonths).toBe("12");
  });

  it("sends existing clients by id and invitees by email, the price as text", () => {
    const r = engagementSchema.safeParse(
      engagement({ price: " 20250.50 ", members: [member({ who: "c1", credits: "6" }), member({ who: INVITE, email: " karim@example.com ", credits: "6" })] }),
    );
    expect(r.success && r.data).toEqual({
      title: "Leadership programme 2027",
      credits: 20,
      price: "20250.50",
      validityMonths: 12,
      startsOn: "2026-12-01",
      dueDays: 14,
      members: [
        { clientId: "c1", credits: 6 },
        { email: "karim@example.com", credits: 6 },
      ],
    });
  });
});

describe("giving and moving an engagement's credits", () => {
  it("gives no more than the pool holds", () => {
    expect(said(allocateIssues(member({ credits: "4" }), 3))).toEqual({ credits: "Only 3 credits are left in the pool" });
    expect(said(allocateIssues(member({ credits: "2" }), 1))).toEqual({ credits: "Only 1 credit is left in the pool" });
    expect(allocateIssues(member({ credits: "3" }), 3)).toEqual([]);
    expect(said(allocateIssues(member({ who: INVITE, email: "x" }), 10))).toEqual({ email: "Invalid email address" });
  });

  const m = (clientId: string, name: string, remaining: number): EngagementMember => ({
    id: clientId,
    clientId,
    name,
    email: `${clientId}@example.com`,
    credits: 6,
    granted: 6,
    used: 6 - remaining,
    remaining,
    joined: true,
  });
  const members = [m("mona", "Mona Adel", 2), m("karim", "Karim Said", 6)];

  it("moves only unused credits, between two executives, with a reason", () => {
    expect(moveIssues({ from: "mona", to: "karim", credits: "2", reason: "Karim leads the new unit" }, members)).toEqual([]);
    expect(said(moveIssues({ from: "mona", to: "karim", credits: "3", reason: "x" }, members))).toEqual({
      credits: "Mona Adel has only 2 unused credits from this engagement",
    });
    expect(said(moveIssues({ from: "mona", to: "mona", credits: "1", reason: " " }, members))).toEqual({
      to: "Choose another executive to receive them",
      reason: "A reason is required",
    });
    expect(said(moveIssues({ from: "", to: "karim", credits: "0", reason: "r" }, members))).toEqual({
      from: "Choose who gives the credits",
      credits: "Give 1 to 1000 credits",
    });
  });

  it("makes report links for 1 to 365 days", () => {
    expect(reportLinkSchema.safeParse({ days: "30" })).toMatchObject({ success: true, data: { days: 30 } });
    for (const days of ["0", "366", "", "7.5"]) expect(reportLinkSchema.safeParse({ days }).success, days).toBe(false);
  });
});

describe("an engagement's invoice and credits", () => {
  it("offers the actions the invoice's status allows", () => {
    expect(invoiceActions({ status: "draft" })).toEqual({ send: true, resend: false, markPaid: true, void: true });
    expect(invoiceActions({ status: "sent" })).toEqual({ send: false, resend: true, markPaid: true, void: true });
    expect(invoiceActions({ status: "overdue" })).toEqual({ send: false, resend: true, markPaid: true, void: true });
    expect(invoiceActions({ status: "paid" })).toEqual({ send: false, resend: false, markPaid: false, void: false });
    expect(invoiceActions({ status: "void" })).toEqual({ send: false, resend: false, markPaid: false, void: false });
    expect(["draft", "sent", "paid", "overdue", "void", "other"].map(invoiceStatusLabel)).toEqual(["Draft", "Sent", "Paid", "Overdue", "Void", "other"]);
  });

  it("releases credits on credit only while they have not reached the executives", () => {
    const inv = (status: "draft" | "sent" | "paid" | "void") => ({ status }) as never;
    expect(canRelease({ released: false, invoice: inv("sent") })).toBe(true);
    expect(canRelease({ released: true, invoice: inv("sent") })).toBe(false);
    expect(canRelease({ released: false, invoice: inv("paid") })).toBe(false);
    expect(canRelease({ released: false, invoice: inv("void") })).toBe(false);
    expect(releaseState({ released: true, releasedAt: "2026-12-02T10:00:00Z", invoice: inv("sent") })).toBe(
      "The credits were released on credit on Dec 02, 2026; the invoice stays open.",
    );
  });

  it("tells an active report link from an expired or revoked one", () => {
    const now = new Date("2026-12-01T00:00:00Z");
    const link = { id: "l", createdAt: "2026-11-01T00:00:00Z", expiresAt: "2026-12-31T00:00:00Z", revokedAt: null };
    expect(linkState(link, now)).toBe("active");
    expect(linkState({ ...link, expiresAt: "2026-11-30T00:00:00Z" }, now)).toBe("expired");
    expect(linkState({ ...link, revokedAt: "2026-11-15T00:00:00Z" }, now)).toBe("revoked");
  });
});

describe("the public invoice page", () => {
  it("reads its token and whether PayTabs brought the payer back", () => {
    expect(pageParams("?token=abc&paid=1")).toEqual({ token: "abc", paid: true });
    expect(pageParams("?token=abc")).toEqual({ token: "abc", paid: false });
    expect(pageParams("")).toEqual({ token: "", paid: false });
  });

  it("offers Pay now only for a sent or overdue invoice", () => {
    expect(["draft", "sent", "overdue", "paid", "void"].filter(canPay)).toEqual(["sent", "overdue"]);
  });

  it("asks again for about 10 seconds after paying, until the invoice reads paid", () => {
    expect(shouldPoll(true, "sent", 0)).toBe(true);
    expect(shouldPoll(true, "sent", 9_999)).toBe(true);
    expect(shouldPoll(true, "sent", 10_000)).toBe(false);
    expect(shouldPoll(true, "paid", 0)).toBe(false);
    expect(shouldPoll(false, "sent", 0)).toBe(false);
    expect(paymentNote(true, "paid", false)).toBe("thanks");
    expect(paymentNote(true, "sent", false)).toBe("confirming");
    expect(paymentNote(true, "sent", true)).toBe("pending");
    expect(paymentNote(false, "paid", false)).toBeNull();
  });
});

describe("the sponsor's usage report", () => {
  it("lists session days in order, as the page's language writes them", async () => {
    expect(reportDays(["2026-12-03", "2026-11-20", ""])).toEqual([
      { day: "2026-11-20", text: "Nov 20, 2026" },
      { day: "2026-12-03", text: "Dec 03, 2026" },
    ]);
    await loadMessages(["sponsorReport"], "ar");
    expect(reportDays(["2026-12-03", "2026-11-20"]).map((d) => d.text)).toEqual(["20 نوفمبر 2026", "3 ديسمبر 2026"]);
  });
});

describe("the client's sponsored credits", () => {
  const nile = { sponsor: "Nile Pharma", engagement: "Leadership programme 2027", credits: 6, remaining: 5 };

  it("reads the dashboard's sponsored list, none when absent", () => {
    expect(sponsoredOf({ sponsored: [nile] })).toEqual([nile]);
    expect(sponsoredOf({})).toEqual([]);
  });

  it("says where the credits come from and how many are left, in both languages", async () => {
    expect(sponsoredText(nile)).toBe("6 of your credits come from Nile Pharma (Leadership programme 2027); 5 left.");
    expect(sponsoredText({ ...nile, credits: 1, remaining: 0 })).toBe("1 of your credits comes from Nile Pharma (Leadership programme 2027); none left.");
    await loadMessages(["dashboard"], "ar");
    expect(sponsoredText(nile)).toBe("6 جلسات من رصيدك برعاية Nile Pharma (Leadership programme 2027)، تبقّت منها 5 جلسات.");
    expect(sponsoredText({ ...nile, credits: 2, remaining: 1 })).toBe("جلستان من رصيدك برعاية Nile Pharma (Leadership programme 2027)، تبقّت منها جلسة واحدة.");
  });
});

describe("the admin's client page and Clients tab", () => {
  it("names an engagement's lot by its engagement and sponsor, and the new ledger kinds", () => {
    const lot = { source: "engagement", engagement: { id: "e1", title: "Leadership programme 2027", sponsor: "Nile Pharma" } };
    expect(lotSource(lot.source, engagementOf(lot))).toBe("Engagement: Leadership programme 2027 (Nile Pharma)");
    expect(lotSource("engagement", engagementOf({ engagement: null }))).toBe("Engagement credits");
    expect(lotSource("purchase", engagementOf({}))).toBe("Online purchase");
    expect([ledgerKind("engagement_grant"), ledgerKind("engagement_move")]).toEqual(["Engagement credits", "Engagement move"]);
  });

  it("reads a client's sponsors", () => {
    expect(sponsorsOf({ sponsors: ["Nile Pharma"] } as never)).toEqual(["Nile Pharma"]);
    expect(sponsorsOf({} as never)).toEqual([]);
  });
});

describe("the API's new messages on an Arabic page", () => {
  it("reads them in Arabic, counts and names filled in", async () => {
    await loadMessages([], "ar");
    expect((await apiTexts("ar", "Only 3 credits are left in the pool", {})).message).toBe("لم تتبقَّ إلا 3 جلسات غير موزَّعة");
    expect((await apiTexts("ar", "Mona Adel has only 2 unused credits from this engagement", {})).message).toBe("لا يملك Mona Adel من هذا التعاقد إلا جلستين غير مستخدمتين");
    expect((await apiTexts("ar", "x", { members: "The executives' credits add up to more than the engagement's" })).fields).toEqual({
      members: "مجموع رصيد المشاركين يتجاوز رصيد التعاقد",
    });
    expect((await apiTexts("ar", "This report link is not valid, has expired or was revoked", {})).message).toBe("رابط التقرير هذا غير صالح، أو انتهت صلاحيته، أو أُبطل");
  });
});
