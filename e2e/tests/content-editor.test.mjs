// The coach edits the website in the browser (issue 25): the admin signs in, opens
// /admin/content (Decap CMS on the API's proxy protocol), changes a blog post's title and a
// package's price; the preview pane shows the post's page as the generator renders it before
// the save; each save is a commit by the admin in the site's (bare) remote, and `site
// build` of the result shows both. A title of spaces, which `site check` refuses, is refused
// with its message and commits nothing.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ADMIN, startProduct } from "../lib/product.mjs";
import { launch, visitor } from "../lib/browser.mjs";
import { signIn } from "../lib/portal.mjs";

const root = resolve(import.meta.dirname, "../..");
const bin = process.env.E2E_BIN_DIR ? resolve(process.env.E2E_BIN_DIR) : join(root, "target/debug");
const POST = "leading-through-economic-uncertainty";
const NEW_TITLE = "Deciding Well When the Ground Keeps Moving";

const git = (dir, ...args) =>
  execFileSync("git", ["-C", dir, "-c", "user.name=Seed", "-c", "user.email=seed@example.com", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" }).trim();

let product;
let browser;
let dir;
before(async () => {
  // The site's repository: the project's content and theme, one commit, a bare remote.
  dir = mkdtempSync(join(tmpdir(), "coaching-editor-"));
  const seed = join(dir, "seed");
  cpSync(join(root, "content"), join(seed, "content"), { recursive: true });
  cpSync(join(root, "themes"), join(seed, "themes"), { recursive: true });
  writeFileSync(join(seed, ".gitignore"), "/.cache\n/public\n");
  git(seed, "init", "-q", "-b", "main");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "the site");
  git(dir, "clone", "-q", "--bare", "seed", "remote.git");
  product = await startProduct({
    env: { CONTENT_REPO: join(dir, "work"), CONTENT_REMOTE: join(dir, "remote.git"), CONTENT_BRANCH: "main" },
  });
  // The photos' WebP sizes the devserver made for the project: the checks need not make them again.
  mkdirSync(join(root, ".cache"), { recursive: true });
  symlinkSync(join(root, ".cache"), join(dir, "work/.cache"));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await product?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const remoteLog = () => git(join(dir, "remote.git"), "log", "--format=%an <%ae>|%s", "main").split("\n");

/** Decap's Publish → Publish now, then its notification. */
async function publish(page) {
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByText("Publish now", { exact: true }).click();
}

test("the admin changes a post's title and a package's price in the editor; both are commits by the admin and build", async () => {
  const admin = await visitor(browser, "content-editor");
  const { page } = admin;
  await signIn(page, ADMIN, product.site);
  await page.waitForURL(/\/admin$/);
  await page.goto(`${product.site}/admin/content#/collections/blog/entries/${POST}`, { waitUntil: "networkidle" });
  const title = page.getByLabel("Title", { exact: true }).first();
  await title.waitFor({ timeout: 60_000 }).catch(async (e) => {
    await admin.shot("post-not-open");
    throw new Error(`${e.message}\n${admin.problems.join("\n")}\n${(await page.content()).slice(0, 3000)}`);
  });
  await admin.shot("post-open");
  const before = remoteLog().length;

  // ---- a title of spaces: Decap lets it through, site check refuses it, nothing is committed
  // The preview pane (the eye button; a translated post opens beside its Arabic version) is
  // the page as the generator renders it: the refusal shows there first.
  await page.getByTitle("Toggle preview").click();
  const preview = page.frameLocator("#preview-pane");
  await title.fill("   ");
  await preview.locator('[data-preview="problem"]').getByText(/site check refused this change/).waitFor({ timeout: 60_000 });
  await publish(page);
  await page.getByText(/site check refused this change/).first().waitFor({ timeout: 60_000 });
  await page.getByText(/field `title`: the title is empty/).first().waitFor();
  await admin.shot("empty-title-refused");
  assert.equal(remoteLog().length, before, "nothing was committed");
  // The refusal is expected: its 422, and Decap logging it and rethrowing it, are not problems.
  await page.waitForTimeout(500);
  admin.problems.length = 0;

  // ---- the new title
  await title.fill(NEW_TITLE);
  // …and, before any save, the post's page with its new title in the site's own theme.
  const rendered = preview.frameLocator('iframe[data-preview="page"]');
  await rendered.getByRole("heading", { level: 1, name: NEW_TITLE }).waitFor({ timeout: 60_000 });
  await rendered.locator("header.site-header, header").first().waitFor();
  await admin.shot("post-preview");
  assert.equal(remoteLog().length, before, "a preview commits nothing");
  await publish(page);
  await page.getByText(/Entry saved/i).first().waitFor({ timeout: 60_000 });
  await admin.shot("post-saved");
  let log = remoteLog();
  assert.equal(log.length, before + 1);
  assert.match(log[0], new RegExp(`^${ADMIN.name} <${ADMIN.email}>\\|`));

  // ---- a package's price (packages.yaml, a list edited as one file)
  await page.goto(`${product.site}/admin/content#/collections/packages/entries/packages`, { waitUntil: "networkidle" });
  await page.reload({ waitUntil: "networkidle" });
  // The list's items are open: the first is individual-1, "Single Session" at 4,500.
  const price = page.getByLabel("Price", { exact: true }).first();
  await price.waitFor({ timeout: 60_000 });
  await admin.shot("packages-open");
  assert.equal(await price.inputValue(), "4500");
  // Its name is given per language in the file: an input for each, not Decap's `Map { … }`.
  assert.equal(await page.getByLabel("Name", { exact: true }).first().inputValue(), "Single Session");
  assert.equal(await page.locator('input[lang="ar"]').nth(0).inputValue(), "جلسة منفردة");
  assert.equal(await page.getByText(/Map \{/).count(), 0);
  await price.fill("4600");
  await publish(page);
  await page.getByText(/Entry saved/i).first().waitFor({ timeout: 60_000 });
  await admin.shot("package-saved");
  log = remoteLog();
  assert.equal(log.length, before + 2);
  assert.match(log[0], new RegExp(`^${ADMIN.name} <${ADMIN.email}>\\|`));

  // ---- `site build` of the remote's main shows both
  const result = join(dir, "result");
  execFileSync("git", ["clone", "-q", join(dir, "remote.git"), result]);
  symlinkSync(join(root, ".cache"), join(result, ".cache"));
  execFileSync(join(bin, "site"), ["--root", result, "build", "--out", join(result, "public")], { encoding: "utf8" });
  const postHtml = readFileSync(join(result, "public/blog", POST, "index.html"), "utf8");
  assert.ok(postHtml.includes(NEW_TITLE), "the post's new title is built");
  const pricing = readFileSync(join(result, "public/pricing/index.html"), "utf8");
  assert.ok(pricing.includes("4,600"), "the new price is built");
  // The package's Arabic name and features were saved with the price, not lost.
  const arabicPricing = readFileSync(join(result, "public/ar/pricing/index.html"), "utf8");
  assert.ok(arabicPricing.includes("جلسة منفردة") && arabicPricing.includes("4,600"), "the Arabic page keeps its texts");
  assert.ok(existsSync(join(result, "public/catalogue.json")));
  assert.deepEqual(admin.problems, []);
  await admin.context.close();
});
