// The coach's editor at /admin/content (issue 25): Decap CMS on its `proxy` backend, which the
// API serves on /api/admin/content/v1 behind the admin's session. A bundle of its own
// (build.mjs builds it apart from the islands, so no other page's JS changes): Decap, its
// React and its widgets load on this page only. Its configuration comes from the API, generated
// from the content model's types. Decap's own interface has no Arabic: the Arabic page registers
// ours (decap.ar.ts); this module's texts (loading, not configured, pending) follow the page's
// language.
import CMS from "decap-cms-app";
import { ProxyBackend } from "decap-cms-backend-proxy";
import { APIError } from "decap-cms-lib-util";
import { createElement, useEffect, useState } from "react";
import YAML from "yaml";
import { TranslatedControl } from "./Translated";
import ar from "./messages.ar.json";
import en from "./messages.en.json";

type Texts = typeof en;
const texts: Texts = document.documentElement.lang === "ar" ? ar : en;
const localPath = (path: string) => (document.documentElement.lang === "ar" ? `/ar${path}` : path);

interface PushStatus {
  commits: boolean;
  remote: boolean;
  pending: boolean;
  lastError?: string | null;
}

/** A status line above Decap: local editing, or a push waiting for its retry. */
function banner(): HTMLElement {
  let el = document.getElementById("content-editor-status");
  if (!el) {
    el = document.createElement("div");
    el.id = "content-editor-status";
    el.setAttribute("role", "status");
    el.style.cssText =
      "position:fixed;bottom:0;inset-inline:0;z-index:1000;padding:.5rem 1rem;font:14px/1.4 system-ui,sans-serif;background:#fff8e1;border-top:1px solid #e0c36a;color:#3d3100";
    el.dir = document.documentElement.dir || "ltr";
    document.body.append(el);
  }
  return el;
}

async function refreshStatus(): Promise<void> {
  const response = await fetch("/api/admin/content/status", { credentials: "same-origin" });
  if (!response.ok) return;
  const status = (await response.json()) as PushStatus;
  const el = banner();
  if (status.pending) {
    el.dataset.state = "pending";
    el.textContent = `${texts.pending} ${status.lastError ? `${texts.pendingReason} ${status.lastError}` : ""}`;
    el.hidden = false;
  } else if (!status.commits) {
    el.dataset.state = "files-only";
    el.textContent = texts.filesOnly;
    el.hidden = false;
  } else {
    el.dataset.state = "published";
    el.textContent = texts.published;
    el.hidden = true;
  }
}

/** Decap's proxy backend, answering with the API's own error message (`{error: {message}}`,
 *  e.g. what `site check` refused) and refreshing the publishing status after each change. */
class CoachBackend extends ProxyBackend {
  override async request(payload: { action: string; params: Record<string, unknown> }) {
    const response = await fetch(this.proxyUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ branch: this.branch, ...payload }),
    });
    const json = await response.json().catch(() => null);
    if (/^(persist|delete)/.test(payload.action)) void refreshStatus();
    if (response.ok) return json;
    const message = json?.error?.message ?? json?.error ?? response.statusText;
    throw new APIError(String(message), response.status, "Proxy");
  }
}

/** The page an entry's data file shows (`packages.yaml` → /pricing): the preview asks for
 *  it when no page is made from the file itself. */
function livePath(collection: string, slug: string): string | null {
  const folders: Record<string, string> = { blog: "/blog/", resources: "/resources/", services: "/services/" };
  if (collection in folders) return `${folders[collection]}${slug}`;
  const files: Record<string, string> = {
    events: "/events", faqs: "/faq", testimonials: "/testimonials", packages: "/pricing", videos: "/videos", logos: "/", settings: "/", about: "/about",
  };
  if (collection === "policies") return `/${slug}`;
  return files[collection] ?? null;
}

interface Immutable {
  get(key: string): unknown;
  getIn(keys: string[]): unknown;
  toJS?(): unknown;
}

const plain = (value: unknown): unknown =>
  value && typeof (value as Immutable).toJS === "function" ? (value as Immutable).toJS!() : value;

/** An entry's values as its file would hold them: no empty values (an optional field left blank
 *  is not written). */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compact);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === null || v === undefined || v === "") continue;
      out[key] = compact(v);
    }
    return out;
  }
  return value;
}

/** The entry's file as a save would write it, in the collection's format. */
function fileText(format: string, data: Record<string, unknown>): string {
  if (format === "yaml-list") return YAML.stringify(compact(data.list ?? []));
  if (format === "frontmatter") {
    const { body, ...meta } = data;
    return `---\n${YAML.stringify(compact(meta))}---\n\n${typeof body === "string" ? body : ""}\n`;
  }
  return YAML.stringify(compact(data));
}

/** The file an entry is saved in, in the language the preview shows: Decap's `x.en.md` or
 *  `x.ar.md` for a translated folder collection; a new entry's from its title. */
function entryPath(collection: Immutable, entry: Immutable, arabic: boolean): string | null {
  const folder = collection.get("folder");
  const known = entry.get("path");
  if (typeof folder !== "string") return typeof known === "string" ? known : null;
  const data = (plain(entry.get("data")) ?? {}) as Record<string, unknown>;
  const title = String(data.title ?? "new-entry");
  const slug = String(entry.get("slug") || "") || title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "new-entry";
  const stem = typeof known === "string" && known ? known.replace(/(\.(en|ar))?\.md$/, "") : `${folder}/${slug}`;
  return `${stem}.${arabic ? "ar" : "en"}.md`;
}

interface PreviewProps {
  entry: Immutable;
  collection: Immutable;
}

type Shown = { state: "loading" } | { state: "page"; html: string; url: string } | { state: "problem"; message: string };

/** The preview pane: the page as the generator renders it with the site's own theme
 *  (`POST /api/admin/content/preview`), 400 ms after the last keystroke; what `site check`
 *  would refuse is shown instead, as a save would refuse it. */
function Preview({ entry, collection }: PreviewProps) {
  const name = String(collection.get("name"));
  // Decap shows a translation by putting its data in the entry's place.
  const arabic = entry.get("data") !== undefined && entry.get("data") === entry.getIn(["i18n", "ar", "data"]);
  const path = entryPath(collection, entry, arabic);
  const format = String(collection.get("format") ?? "frontmatter");
  const raw = fileText(format, (plain(entry.get("data")) ?? {}) as Record<string, unknown>);
  const live = livePath(name, String(entry.get("slug") ?? ""));
  const url = live && (arabic || document.documentElement.lang === "ar") && format !== "frontmatter" ? `/ar${live === "/" ? "" : live}` : live;
  const [shown, setShown] = useState<Shown>({ state: "loading" });
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch("/api/admin/content/preview", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json; charset=utf-8" },
          body: JSON.stringify({ path, raw, url }),
          signal: controller.signal,
        });
        const json = await response.json().catch(() => null);
        if (response.ok) setShown({ state: "page", html: json.html, url: json.url });
        // A 404 has a text of its own in the page's language; a refusal is `site check`'s own message.
        else if (response.status === 404) setShown({ state: "problem", message: texts.previewNoPage });
        else setShown({ state: "problem", message: String(json?.error?.message ?? texts.previewFailed) });
      } catch (e) {
        if (!controller.signal.aborted) setShown({ state: "problem", message: texts.previewFailed });
      }
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [path, raw, url]);
  // Room on both sides for Decap's pane buttons (on the right, or the left on an Arabic page;
  // the preview's own frame has no direction of its own).
  const note = { font: "14px/1.5 system-ui, sans-serif", margin: 0, padding: ".5rem 4rem" } as const;
  if (shown.state === "problem")
    return createElement(
      "div",
      { role: "alert", "data-preview": "problem", style: { ...note, whiteSpace: "pre-wrap", overflowWrap: "anywhere", color: "#7a1a12", background: "#fdecea" } },
      shown.message,
    );
  if (shown.state === "loading") return createElement("p", { role: "status", style: note }, texts.previewLoading);
  return createElement(
    "div",
    { style: { display: "flex", flexDirection: "column", height: "100vh" } },
    createElement(
      "p",
      { style: note },
      `${texts.previewNote} `,
      createElement("a", { href: shown.url, target: "_blank", rel: "noopener" }, texts.viewLive),
    ),
    createElement("iframe", {
      title: texts.previewTitle,
      "data-preview": "page",
      srcDoc: shown.html,
      // The page's own links and scripts stay inside the preview.
      sandbox: "allow-same-origin",
      style: { flex: 1, width: "100%", border: 0 },
    }),
  );
}

export async function mount(el: HTMLElement): Promise<void> {
  el.textContent = texts.loading;
  // The labels in the page's language.
  const response = await fetch(`/api/admin/content/config${document.documentElement.lang === "ar" ? "?lang=ar" : ""}`, { credentials: "same-origin" });
  if (response.status === 401) {
    location.assign(localPath("/auth"));
    return;
  }
  if (response.status === 403) {
    location.assign(localPath("/dashboard"));
    return;
  }
  if (!response.ok) {
    el.textContent = response.status === 404 ? texts.notConfigured : texts.loadFailed;
    return;
  }
  const config = await response.json();
  // Decap takes the whole page: the site's header and footer step aside.
  document.body.classList.add("content-editor");
  const style = document.createElement("style");
  // Right to left, Decap's pane buttons (pinned to the right) would cover the form's labels:
  // they go to the left, over the preview's note, which leaves them room.
  style.textContent =
    "body.content-editor > header, body.content-editor > footer, body.content-editor main > :not(#nc-root) { display: none }" +
    ' html[dir="rtl"] [class*="-ViewControls"] { right: auto; left: 10px }';
  document.head.append(style);
  el.textContent = "";
  // Decap's own proxy backend is registered as `proxy`: ours, with the API's messages, beside it.
  CMS.registerBackend("coach", CoachBackend);
  config.backend.name = "coach";
  // packages.yaml, faqs.yaml…: a list at the top of the file, which Decap edits as `list`.
  CMS.registerCustomFormat("yaml-list", "yaml", {
    fromFile: (text: string) => ({ list: YAML.parse(text) ?? [] }),
    toFile: (data: { list?: unknown[] }) => YAML.stringify(data.list ?? []),
  });
  // A data file's texts, given per language (`{en, ar}`): see Translated.tsx.
  CMS.registerWidget("translated", TranslatedControl);
  for (const c of config.collections as { name: string }[]) CMS.registerPreviewTemplate(c.name, Preview);
  // Decap has no Arabic of its own: on the Arabic page, ours (the page is right to left).
  if (document.documentElement.lang === "ar") {
    const { arabic } = await import("./decap.ar");
    CMS.registerLocale("ar", arabic);
    config.locale = "ar";
  }
  // The admin is signed in already (the API checked the session): Decap's own login page
  // (a button, for the proxy backend) is skipped by telling it who is editing.
  localStorage.setItem("decap-cms-user", JSON.stringify({ backendName: "coach" }));
  CMS.init({ config });
  void refreshStatus();
  setInterval(() => void refreshStatus(), 30_000);
}
