// @vitest-environment happy-dom
// An island speaks its page's language: /auth mounted under <html lang="ar"> shows Arabic
// (labels, tabs, the forms' own checks) with its tabs right to left, and under <html lang="en">
// exactly today's English; the links an island builds on an Arabic page stay under /ar.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const settle = () => act(async () => new Promise((r) => setTimeout(r, 20)));

afterEach(() => {
  document.body.replaceChildren();
  document.documentElement.lang = "";
});

/** Mounts the /auth island as the runtime does, on a page in `lang` (fresh modules each time). */
async function mountAuthPage(lang: string): Promise<HTMLElement> {
  document.documentElement.lang = lang;
  vi.resetModules();
  const { mount } = await import("../src/islands/AuthPage");
  const el = document.createElement("div");
  document.body.append(el);
  await act(async () => mount(el, {}));
  for (let i = 0; i < 10 && !el.querySelector('[role="tablist"]'); i++) await settle();
  return el;
}

const text = (el: ParentNode, selector: string) => [...el.querySelectorAll(selector)].map((n) => n.textContent?.trim());

async function submitEmpty(el: HTMLElement, email: string) {
  const input = el.querySelector<HTMLInputElement>("#auth-signin-email")!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, email);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await act(async () => {
    el.querySelector("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  });
  for (let i = 0; i < 10 && !el.querySelector("#auth-signin-email-error"); i++) await settle();
}

describe("the /auth island", () => {
  it("shows today's English on an English page", async () => {
    const el = await mountAuthPage("en");
    expect(text(el, '[role="tab"]')).toEqual(["Sign In", "Sign Up"]);
    expect(el.querySelector('[role="tablist"]')?.getAttribute("aria-label")).toBe("Sign in or create an account");
    expect(text(el, 'form label')).toEqual(["Email", "Password"]);
    expect(text(el, 'button[type="submit"]')).toEqual(["Sign In"]);
    expect(el.textContent).toContain("Forgot your password?");
    expect(el.querySelector(".tabs")?.getAttribute("dir")).toBe("ltr");
    await submitEmpty(el, "not-an-email");
    expect(el.querySelector("#auth-signin-email-error")?.textContent).toBe("Invalid email address");
    expect(el.querySelector("#auth-signin-password-error")?.textContent).toBe("Password is required");
  });

  it("shows Arabic on an Arabic page, right to left", async () => {
    const el = await mountAuthPage("ar");
    expect(text(el, '[role="tab"]')).toEqual(["تسجيل الدخول", "إنشاء حساب"]);
    expect(el.querySelector('[role="tablist"]')?.getAttribute("aria-label")).toBe("سجّل الدخول أو أنشئ حسابًا");
    expect(text(el, "form label")).toEqual(["البريد الإلكتروني", "كلمة المرور"]);
    expect(text(el, 'button[type="submit"]')).toEqual(["تسجيل الدخول"]);
    expect(el.textContent).toContain("نسيت كلمة المرور؟");
    expect(el.textContent).not.toMatch(/Sign In|Password|Email/);
    expect(el.querySelector(".tabs")?.getAttribute("dir")).toBe("rtl");
    // The forms' checks speak Arabic too.
    await submitEmpty(el, "not-an-email");
    expect(el.querySelector("#auth-signin-email-error")?.textContent).toBe("عنوان البريد الإلكتروني غير صحيح");
    expect(el.querySelector("#auth-signin-password-error")?.textContent).toBe("كلمة المرور مطلوبة");
  });
});

describe("links an island builds", () => {
  async function renderNoCredits(lang: "en" | "ar") {
    document.documentElement.lang = lang;
    vi.resetModules();
    const { loadMessages } = await import("../src/lib/i18n");
    const { NoCredits } = await import("../src/client/BookingParts");
    await loadMessages(["booking"]);
    const el = document.createElement("div");
    document.body.append(el);
    await act(async () => createRoot(el).render(<NoCredits />));
    return el;
  }

  it("stay in the page's language", async () => {
    const en = await renderNoCredits("en");
    expect([...en.querySelectorAll("a")].map((a) => [a.getAttribute("href"), a.textContent])).toEqual([
      ["/pricing", "Buy Credits"],
      ["/dashboard", "Back to Dashboard"],
    ]);
    const ar = await renderNoCredits("ar");
    expect([...ar.querySelectorAll("a")].map((a) => [a.getAttribute("href"), a.textContent])).toEqual([
      ["/ar/pricing", "شراء رصيد"],
      ["/ar/dashboard", "العودة إلى لوحة التحكم"],
    ]);
  });
});
