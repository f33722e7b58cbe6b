// @vitest-environment happy-dom
// Toasts load their code when first needed (src/lib/toast.tsx): nothing of sonner is on the
// page until the reader does something or a toast is asked for; a toast asked for before the
// code has arrived still shows, once, in order, with its description.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const settle = () => act(async () => new Promise((r) => setTimeout(r, 20)));

afterEach(() => document.body.replaceChildren());

async function mountToasts() {
  vi.resetModules();
  await (await import("../src/lib/i18n")).loadMessages([]);
  const mod = await import("../src/lib/toast");
  const el = document.createElement("div");
  document.body.append(el);
  await act(async () => createRoot(el).render(<mod.Toasts />));
  return { ...mod, el };
}

const toaster = () => document.querySelector("[data-sonner-toaster]");
const shown = () => [...document.querySelectorAll("[data-sonner-toast] [data-title]")].map((n) => n.textContent);

describe("toasts", () => {
  it("are not on the page before they are needed", async () => {
    await mountToasts();
    await settle();
    expect(document.querySelector("section[aria-label]")).toBeNull();
    expect(toaster()).toBeNull();
  });

  it("show a toast asked for before their code arrived, once and in order", async () => {
    const { toast } = await mountToasts();
    toast.success("Welcome back!", { description: "You've successfully signed in." });
    toast.error("Sign in failed");
    for (let i = 0; i < 20 && shown().length < 2; i++) await settle();
    expect(shown().sort()).toEqual(["Sign in failed", "Welcome back!"]);
    expect(document.body.textContent).toContain("You've successfully signed in.");
    // Later toasts go straight to the mounted Toaster.
    toast.success("Saved");
    for (let i = 0; i < 20 && shown().length < 3; i++) await settle();
    expect(shown().filter((t) => t === "Welcome back!")).toHaveLength(1);
    expect(shown()).toContain("Saved");
  });

  it("load on the reader's first interaction", async () => {
    await mountToasts();
    await act(async () => document.body.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true })));
    for (let i = 0; i < 20 && !document.querySelector("section[aria-label]"); i++) await settle();
    expect(document.querySelector("section[aria-label]")).not.toBeNull();
  });
});
