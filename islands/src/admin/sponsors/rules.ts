// The Sponsors tab's forms: their values (the strings the inputs hold), the API's rules checked
// before sending (each message on its field, in the same words as the API's), and the bodies the
// API takes. `…Issues` say the rules as plain data, so they are tested without a browser; the
// zod schemas hand them to the forms (lib/form). Loaded with the tab, never with the dashboard.
import * as z from "zod/mini";
import { type MessageKey, type Values, t } from "../../lib/i18n";
import { EMAIL } from "../../lib/validate";
import { dayParts } from "../../lib/days";
import type { CreateEngagementBody, EngagementMember, MemberBody, MoveBody, SponsorBody } from "../../sponsors/types";

/** A rule broken: where (the field's path in the form) and what to say. */
export interface Issue {
  path: (string | number)[];
  message: string;
}

const WHOLE = /^\d+$/;
const AMOUNT = /^\d+(\.\d{1,2})?$/;
const blank = (s: string) => s.trim() === "";
/** A whole number from `min` to `max`, or NaN. */
export function wholeIn(text: string, min: number, max: number): number {
  const s = text.trim();
  const n = WHOLE.test(s) ? Number(s) : Number.NaN;
  return n >= min && n <= max ? n : Number.NaN;
}
const issue = (path: (string | number)[], key: MessageKey, values?: Values): Issue => ({ path, message: t(key, values) });

/** A zod check that reports the issues a pure function finds. */
function issuesCheck<T>(find: (values: T) => Issue[]) {
  return z.superRefine<T>((values, ctx) => {
    for (const i of find(values)) ctx.addIssue({ code: "custom", message: i.message, path: i.path, input: values });
  });
}

// ------------------------------------------------------------------------------ a sponsor

export interface SponsorValues {
  name: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  address: string;
  taxId: string;
  notes: string;
}

export const SPONSOR_FIELDS = ["name", "contactName", "contactEmail", "contactPhone", "address", "taxId", "notes"] as const;

export const sponsorDefaults = (): SponsorValues => ({ name: "", contactName: "", contactEmail: "", contactPhone: "", address: "", taxId: "", notes: "" });

/** Egypt's tax registration number: 9 digits, written with or without dashes or spaces. */
export const taxIdOk = (text: string) => blank(text) || /^\d{9}$/.test(text.replace(/[\s-]/g, ""));

export function sponsorIssues(f: SponsorValues): Issue[] {
  const out: Issue[] = [];
  if (blank(f.name)) out.push(issue(["name"], "admin.sponsors.rule.name"));
  if (blank(f.contactName)) out.push(issue(["contactName"], "admin.sponsors.rule.contactName"));
  if (!EMAIL.test(f.contactEmail.trim())) out.push(issue(["contactEmail"], "admin.sponsors.rule.email"));
  if (!taxIdOk(f.taxId)) out.push(issue(["taxId"], "admin.sponsors.rule.taxId"));
  return out;
}

const orNull = (s: string) => (blank(s) ? null : s.trim());

export const sponsorSchema = z.pipe(
  z
    .object({
      name: z.string(),
      contactName: z.string(),
      contactEmail: z.string(),
      contactPhone: z.string(),
      address: z.string(),
      taxId: z.string(),
      notes: z.string(),
    })
    .check(issuesCheck(sponsorIssues)),
  z.transform(
    (f): SponsorBody => ({
      name: f.name.trim(),
      contactName: f.contactName.trim(),
      contactEmail: f.contactEmail.trim(),
      contactPhone: orNull(f.contactPhone),
      address: orNull(f.address),
      taxId: orNull(f.taxId),
      notes: orNull(f.notes),
    }),
  ),
);

// ------------------------------------------------------------------------------ who: a client or an email

/** The member picker's value that means "invite someone by email". */
export const INVITE = "invite";

export interface MemberValues {
  /** A client's id, INVITE, or "" (nobody chosen yet). */
  who: string;
  email: string;
  credits: string;
}

export const memberDefaults = (): MemberValues => ({ who: "", email: "", credits: "" });

/** The member as the API takes it, once valid. */
export function memberBody(m: MemberValues): MemberBody {
  const credits = Number(m.credits.trim());
  return m.who === INVITE ? { email: m.email.trim(), credits } : { clientId: m.who, credits };
}

/** Who a row names, to find the same executive twice: a client's id, or an invited email. */
const identity = (m: MemberValues) => (m.who === INVITE ? `email:${m.email.trim().toLowerCase()}` : `client:${m.who}`);

/** The rules of one member row (at `path`), and whether it names someone already listed. */
function memberIssues(m: MemberValues, path: (string | number)[], seen: Set<string>): Issue[] {
  const out: Issue[] = [];
  if (m.who === "") out.push(issue([...path, "who"], "admin.sponsors.rule.who"));
  else if (m.who === INVITE && !EMAIL.test(m.email.trim())) out.push(issue([...path, "email"], "admin.sponsors.rule.email"));
  else if (seen.has(identity(m))) out.push(issue([...path, m.who === INVITE ? "email" : "who"], "admin.sponsors.rule.twice"));
  if (m.who !== "") seen.add(identity(m));
  if (Number.isNaN(wholeIn(m.credits, 1, 1000))) out.push(issue([...path, "credits"], "admin.sponsors.rule.memberCredits"));
  return out;
}

// ------------------------------------------------------------------------------ a new engagement

export interface EngagementValues {
  title: string;
  credits: string;
  /** EGP, e.g. "20250" or "20250.50". */
  price: string;
  validityMonths: string;
  startsOn: string;
  dueDays: string;
  members: MemberValues[];
}

export const ENGAGEMENT_FIELDS = ["title", "credits", "price", "validityMonths", "startsOn", "dueDays", "members"] as const;
export const DEFAULT_DUE_DAYS = 14;

export const engagementDefaults = (startsOn: string, validityMonths: number | null): EngagementValues => ({
  title: "",
  credits: "",
  price: "",
  validityMonths: String(validityMonths ?? 12),
  startsOn,
  dueDays: String(DEFAULT_DUE_DAYS),
  members: [],
});

/** The members' credits, counting what each row holds (a row still being typed counts 0). */
export function membersTotal(members: readonly Pick<MemberValues, "credits">[]): number {
  return members.reduce((n, m) => n + (Number.isNaN(wholeIn(m.credits, 1, 1000)) ? 0 : Number(m.credits.trim())), 0);
}

/** The credits no member was given yet: the engagement's pool (negative when over-given);
 *  null while the engagement's credits are not a number yet. */
export function poolLeft(f: Pick<EngagementValues, "credits" | "members">): number | null {
  const credits = wholeIn(f.credits, 1, 1000);
  return Number.isNaN(credits) ? null : credits - membersTotal(f.members);
}

export function engagementIssues(f: EngagementValues): Issue[] {
  const out: Issue[] = [];
  if (blank(f.title)) out.push(issue(["title"], "admin.sponsors.rule.title"));
  if (Number.isNaN(wholeIn(f.credits, 1, 1000))) out.push(issue(["credits"], "admin.sponsors.rule.credits"));
  if (!AMOUNT.test(f.price.trim())) out.push(issue(["price"], "admin.sponsors.rule.price"));
  if (Number.isNaN(wholeIn(f.validityMonths, 1, 60))) out.push(issue(["validityMonths"], "admin.sponsors.rule.validity"));
  if (dayParts(f.startsOn.trim()) === null) out.push(issue(["startsOn"], "admin.sponsors.rule.startsOn"));
  if (Number.isNaN(wholeIn(f.dueDays, 0, 365))) out.push(issue(["dueDays"], "admin.sponsors.rule.dueDays"));
  // The whole list's message before its rows': the form nests the rows' messages under it
  // (errors.members[0].credits beside errors.members.message), where a later one would replace them.
  const left = poolLeft(f);
  if (left !== null && left < 0) out.push(issue(["members"], "admin.sponsors.rule.overGiven"));
  const seen = new Set<string>();
  f.members.forEach((m, i) => out.push(...memberIssues(m, ["members", i], seen)));
  return out;
}

export const engagementSchema = z.pipe(
  z
    .object({
      title: z.string(),
      credits: z.string(),
      price: z.string(),
      validityMonths: z.string(),
      startsOn: z.string(),
      dueDays: z.string(),
      members: z.array(z.object({ who: z.string(), email: z.string(), credits: z.string() })),
    })
    .check(issuesCheck(engagementIssues)),
  z.transform(
    (f): Omit<CreateEngagementBody, "sponsorId"> => ({
      title: f.title.trim(),
      credits: Number(f.credits.trim()),
      price: f.price.trim(),
      validityMonths: Number(f.validityMonths.trim()),
      startsOn: f.startsOn.trim(),
      dueDays: Number(f.dueDays.trim()),
      members: f.members.map(memberBody),
    }),
  ),
);

// ------------------------------------------------------------------------------ give credits from the pool

export const ALLOCATE_FIELDS = ["who", "email", "credits"] as const;

/** One more member, or more credits for one, from the `pool` left. */
export function allocateIssues(f: MemberValues, pool: number): Issue[] {
  const out = memberIssues(f, [], new Set());
  const n = wholeIn(f.credits, 1, 1000);
  if (!Number.isNaN(n) && n > pool) out.push(issue(["credits"], "admin.sponsors.rule.poolLeft", { count: pool }));
  return out;
}

export const allocateSchema = (pool: number) =>
  z.pipe(
    z.object({ who: z.string(), email: z.string(), credits: z.string() }).check(issuesCheck((f: MemberValues) => allocateIssues(f, pool))),
    z.transform(memberBody),
  );

// ------------------------------------------------------------------------------ move credits

export interface MoveValues {
  from: string;
  to: string;
  credits: string;
  reason: string;
}

export const MOVE_FIELDS = ["from", "to", "credits", "reason"] as const;
export const moveDefaults = (): MoveValues => ({ from: "", to: "", credits: "", reason: "" });

/** The members credits can move between: those with an account. */
export const movable = (members: readonly EngagementMember[]) => members.filter((m): m is EngagementMember & { clientId: string } => m.clientId !== null);

export function moveIssues(f: MoveValues, members: readonly EngagementMember[]): Issue[] {
  const out: Issue[] = [];
  const from = members.find((m) => m.clientId === f.from);
  if (!from) out.push(issue(["from"], "admin.sponsors.rule.from"));
  if (f.to === "" || f.to === f.from) out.push(issue(["to"], "admin.sponsors.rule.to"));
  const n = wholeIn(f.credits, 1, 1000);
  if (Number.isNaN(n)) out.push(issue(["credits"], "admin.sponsors.rule.memberCredits"));
  else if (from && n > from.remaining) out.push(issue(["credits"], "admin.sponsors.rule.unused", { name: from.name ?? from.email, count: from.remaining }));
  if (blank(f.reason)) out.push(issue(["reason"], "admin.sponsors.rule.reason"));
  return out;
}

export const moveSchema = (members: readonly EngagementMember[]) =>
  z.pipe(
    z.object({ from: z.string(), to: z.string(), credits: z.string(), reason: z.string() }).check(issuesCheck((f: MoveValues) => moveIssues(f, members))),
    z.transform((f): MoveBody => ({ fromClientId: f.from, toClientId: f.to, credits: Number(f.credits.trim()), reason: f.reason.trim() })),
  );

// ------------------------------------------------------------------------------ a report link, a bank transfer

export const DEFAULT_REPORT_DAYS = 30;

export const reportLinkSchema = z.pipe(
  z.object({ days: z.string() }).check(issuesCheck((f: { days: string }) => (Number.isNaN(wholeIn(f.days, 1, 365)) ? [issue(["days"], "admin.sponsors.rule.days")] : []))),
  z.transform((f) => ({ days: Number(f.days.trim()) })),
);

export const markPaidSchema = z.pipe(
  z.object({ bankReference: z.string() }).check(
    issuesCheck((f: { bankReference: string }) => ([...f.bankReference.trim()].length > 100 ? [issue(["bankReference"], "admin.sponsors.rule.reference")] : [])),
  ),
  z.transform((f) => ({ bankReference: orNull(f.bankReference) })),
);

// ------------------------------------------------------------------------------ the API's field names

/** The API's name of a form field (allocate: who → clientId; move: from → fromClientId). */
export const apiField = (name: string): string =>
  ({ who: "clientId", from: "fromClientId", to: "toClientId" })[name] ?? name;
