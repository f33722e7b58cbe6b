// The coach's editor at /admin/content (issue 25): Decap CMS on its `proxy` backend, which the
// API serves on /api/admin/content/v1 behind the admin's session. A bundle of its own
// (build.mjs builds it apart from the islands, so no other page's JS changes): Decap, its
// React and its widgets load on this page only. Its configuration comes from the API, generated
// from the content model's types. Decap's own interface is English only (it has no Arabic);
// this module's texts (loading, not configured, pending) follow the page's language.
import CMS from "decap-cms-app";
import { ProxyBackend } from "decap-cms-backend-proxy";
import { APIError } from "decap-cms-lib-util";
import { createElement } from "react";
import YAML from "yaml";
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

/** The live page of an entry (devserver re-renders it on each save). */
function livePath(collection: string, slug: string): string | null {
  const folders: Record<string, string> = { blog: "/blog/", resources: "/resources/", services: "/services/" };
  if (collection in folders) return `${folders[collection]}${slug}`;
  const files: Record<string, string> = {
    events: "/events", faqs: "/faq", testimonials: "/testimonials", packages: "/pricing", videos: "/videos", logos: "/", settings: "/", about: "/about",
  };
  if (collection === "policies") return `/${slug}`;
  return files[collection] ?? null;
}

function Preview(props: { entry: { get(key: string): unknown }; collection: { get(key: string): unknown } }) {
  const collection = String(props.collection.get("name"));
  const slug = String(props.entry.get("slug") ?? "");
  const path = livePath(collection, slug);
  return createElement(
    "div",
    { style: { font: "16px/1.5 system-ui, sans-serif", padding: "1rem" } },
    createElement("p", null, texts.previewNote),
    path ? createElement("a", { href: localPath(path), target: "_blank", rel: "noopener" }, `${texts.viewLive}: ${path}`) : null,
  );
}

export async function mount(el: HTMLElement): Promise<void> {
  el.textContent = texts.loading;
  const response = await fetch("/api/admin/content/config", { credentials: "same-origin" });
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
  style.textContent = "body.content-editor > header, body.content-editor > footer, body.content-editor main > :not(#nc-root) { display: none }";
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
  for (const c of config.collections as { name: string }[]) CMS.registerPreviewTemplate(c.name, Preview);
  // The admin is signed in already (the API checked the session): Decap's own login page
  // (a button, for the proxy backend) is skipped by telling it who is editing.
  localStorage.setItem("decap-cms-user", JSON.stringify({ backendName: "coach" }));
  CMS.init({ config });
  void refreshStatus();
  setInterval(() => void refreshStatus(), 30_000);
}
