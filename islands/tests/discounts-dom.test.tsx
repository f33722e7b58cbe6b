// @vitest-environment happy-dom
// The Discount Codes tab in a DOM, against a stand-in of the API and /catalogue.json: the table
// shows each code's discount, packages, uses and status; Deactivate switches a code off; the New
// discount code dialog offers the packages on sale as labelled checkboxes in a fieldset, sends
// what the admin chose, and puts the API's refusal on the field it names.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DiscountCodeView } from "../src/api/types";
import { DiscountsTab } from "../src/admin/DiscountsTab";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SPRING: DiscountCodeView = {
  id: "a".repeat(32),
  code: "SPRING10",
  kind: "percent",
  percent: 10,
  amountOff: null,
  packageIds: ["individual-5"],
  validFrom: null,
  validTo: null,
  maxUses: 5,
  uses: 3,
  remaining: 2,
  oncePerClient: true,
  isActive: true,
  status: "active",
  createdAt: "2026-05-01T10:00:00.000000Z",
};
const CATALOGUE = {
  packages: [
    { id: "individual-5", name: "Momentum", sessions: 5, is_active: true },
    { id: "individual-3", name: "Retired", sessions: 3, is_active: false },
  ],
};

type Call = { url: string; method: string; body: unknown };
let calls: Call[];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url === "/catalogue.json") return json(200, CATALOGUE);
      if (url.endsWith("/deactivate")) return json(200, { ...SPRING, isActive: false, status: "inactive" });
      if (method === "POST") return json(422, { error: { code: "validation_error", message: "This code is already taken", fields: { code: "This code is already taken" } } });
      return json(200, [SPRING]);
    }),
  );
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const byText = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent?.includes(text))!;
async function click(el: Element) {
  await act(async () => el.dispatchEvent(new MouseEvent("click", { bubbles: true })));
  await settle();
}
async function type(el: HTMLInputElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
}

describe("the Discount Codes tab", () => {
  it("lists the codes and switches one off", async () => {
    act(() => root.render(<DiscountsTab />));
    await settle();
    await settle();
    const row = host.querySelector("tbody tr")!;
    const cells = [...row.children].map((c) => c.textContent);
    expect(cells.slice(0, 7)).toEqual(["SPRING10", "10% off", "Momentum", "No time limit", "3 / 5", "Yes", "Active"]);
    const button = row.querySelector("button")!;
    expect(button.getAttribute("aria-label")).toBe("Deactivate SPRING10");
    await click(button);
    expect(calls.at(-1)).toMatchObject({ url: `/api/admin/discount-codes/${SPRING.id}/deactivate`, method: "POST" });
    expect(row.querySelector("button")?.textContent).toBe("Activate");
    expect([...row.children][6]?.textContent).toBe("Deactivated");
  });

  it("creates a code with the packages chosen, and shows the API's refusal on its field", async () => {
    act(() => root.render(<DiscountsTab />));
    await settle();
    await settle();
    await click(byText("New discount code"));
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    const legend = dialog.querySelector("fieldset legend");
    expect(legend?.textContent).toBe("Packages");
    // Only the package on sale is offered, labelled.
    const boxes = [...dialog.querySelectorAll<HTMLInputElement>('fieldset input[type="checkbox"]')];
    expect(boxes.map((b) => dialog.querySelector(`label[for="${CSS.escape(b.id)}"]`)?.textContent)).toEqual(["Momentum (5 sessions)"]);

    const code = dialog.querySelector<HTMLInputElement>('input[id$="-code"]')!;
    await type(code, "spring10");
    await type(dialog.querySelector<HTMLInputElement>('input[id$="-value"]')!, "10");
    await click(boxes[0]!);
    await act(async () => dialog.querySelector("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })));
    await settle();
    await settle();
    const sent = calls.find((c) => c.method === "POST" && c.url === "/api/admin/discount-codes");
    expect(sent?.body).toEqual({
      code: "SPRING10",
      kind: "percent",
      percent: 10,
      packageIds: ["individual-5"],
      validFrom: null,
      validTo: null,
      maxUses: null,
      oncePerClient: false,
    });
    expect(document.getElementById(`${code.id}-error`)?.textContent).toBe("This code is already taken");
    expect(code.getAttribute("aria-invalid")).toBe("true");
  });
});
