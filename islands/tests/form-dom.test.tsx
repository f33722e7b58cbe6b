// @vitest-environment happy-dom
// The form layer and the admin table in a DOM: a field shows its message with the ARIA wiring,
// loses it when edited, takes the API's messages, and the form sends the schema's output; the
// table labels its cells for the phone's cards and shows its loading and empty states.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { Table } from "../src/admin/Table";
import { Form, FormField, type ZodForm, lazySchema, showServerErrors, useZodForm } from "../src/lib/form";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const schema = z.pipe(
  z.object({
    name: z.string().check(z.trim(), z.minLength(2, "Full name must be at least 2 characters")),
    amount: z.string(),
  }),
  z.transform((v) => ({ name: v.name, amount: Number(v.amount || 0) })),
);
type Values = { name: string; amount: string };
type Sent = { name: string; amount: number };

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

/** Lets the resolver's promises and React's updates settle. */
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

function render(source: typeof schema | (() => Promise<typeof schema>), sent: Sent[], handle: { form?: ZodForm<Values, Sent> } = {}) {
  function Demo() {
    const form = useZodForm<Values, Sent>({ schema: source, defaultValues: { name: "", amount: "" } });
    handle.form = form;
    return (
      <Form form={form} className="form" onSubmit={(v) => void sent.push(v)}>
        <FormField<Values> name="name" id="t-name" label="Full Name" hint="As on the receipt.">
          <input className="input" />
        </FormField>
        <FormField<Values> name="amount" id="t-amount" label="Amount">
          <input className="input" />
        </FormField>
        <button type="submit">Send</button>
      </Form>
    );
  }
  act(() => root.render(<Demo />));
}

const input = (id: string) => host.querySelector<HTMLInputElement>(`#${id}`)!;
const submit = async () => {
  await act(async () => {
    host.querySelector("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
  });
  await settle();
};
async function type(id: string, value: string) {
  const el = input(id);
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
}

describe("FormField", () => {
  it("wires the label, the hint and the schema's message to the control", async () => {
    const sent: Sent[] = [];
    render(schema, sent);
    const name = input("t-name");
    expect(host.querySelector('label[for="t-name"]')?.textContent).toBe("Full Name");
    expect(host.querySelector(".field__hint")?.textContent).toBe("As on the receipt.");
    expect(name.hasAttribute("aria-invalid")).toBe(false);

    await type("t-name", "M");
    await submit();
    const error = host.querySelector("#t-name-error");
    expect(error?.textContent).toBe("Full name must be at least 2 characters");
    expect(error?.getAttribute("role")).toBe("alert");
    expect(error?.className).toBe("field__error");
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(name.getAttribute("aria-describedby")).toBe("t-name-error");
    // The hint gives way to the message; the other field is untouched.
    expect(host.querySelector(".field__hint")).toBeNull();
    expect(input("t-amount").hasAttribute("aria-invalid")).toBe(false);
    expect(sent).toEqual([]);

    // Editing the field takes its message away until the next submit.
    await type("t-name", "Mo");
    expect(host.querySelector("#t-name-error")).toBeNull();
    expect(name.hasAttribute("aria-invalid")).toBe(false);
    expect(name.hasAttribute("aria-describedby")).toBe(false);
  });

  it("sends the schema's output", async () => {
    const sent: Sent[] = [];
    render(schema, sent);
    await type("t-name", "  Mona Adel ");
    await type("t-amount", "12");
    await submit();
    expect(sent).toEqual([{ name: "Mona Adel", amount: 12 }]);
  });

  it("checks with a schema that loads on demand", async () => {
    const sent: Sent[] = [];
    render(lazySchema(async () => schema), sent);
    await submit();
    expect(host.querySelector("#t-name-error")?.textContent).toBe("Full name must be at least 2 characters");
    await type("t-name", "Mona");
    await submit();
    expect(sent).toEqual([{ name: "Mona", amount: 0 }]);
  });

  it("puts the API's field messages on their fields", async () => {
    const handle: { form?: ZodForm<Values, Sent> } = {};
    render(schema, [], handle);
    await act(async () => showServerErrors(handle.form!, { full_name: "Taken", other: "x" }, ["name", "amount"], (n) => (n === "name" ? "full_name" : n)));
    expect(host.querySelector("#t-name-error")?.textContent).toBe("Taken");
    expect(input("t-name").getAttribute("aria-invalid")).toBe("true");
    expect(host.querySelector("#t-amount-error")).toBeNull();
  });
});

type Row = { id: string; name: string; credits: number };
const columns = [
  { header: "Name", rowHeader: true, className: "admin-table__name", cell: (r: Row) => r.name },
  { header: "Credits", note: "available / total", numeric: true, className: "nowrap", cell: (r: Row) => r.credits },
  { header: "Actions", hiddenHeader: true, className: "admin-table__actions", cell: () => null },
];

describe("Table", () => {
  it("declares its columns: headers, classes and the phone card's labels", () => {
    act(() => root.render(<Table label="Clients table" caption="Clients" columns={columns} rows={[{ id: "a", name: "Mona", credits: 3 }]} rowKey={(r) => r.id} empty={<p>None</p>} />));
    const region = host.querySelector('[role="region"]')!;
    expect(region.className).toBe("table-wrap");
    expect(region.getAttribute("aria-label")).toBe("Clients table");
    expect(host.querySelector("table")?.className).toBe("data-table admin-table");
    expect(host.querySelector("caption")?.textContent).toBe("Clients");
    const heads = [...host.querySelectorAll("thead th")];
    expect(heads.map((th) => th.textContent)).toEqual(["Name", "Credits available / total", "Actions"]);
    expect(heads[1]?.className).toBe("num");
    expect(heads[2]?.querySelector(".visually-hidden")?.textContent).toBe("Actions");
    const cells = [...host.querySelectorAll("tbody tr > *")];
    expect(cells.map((c) => [c.tagName, c.getAttribute("data-label"), c.className])).toEqual([
      ["TH", "Name", "admin-table__name"],
      ["TD", "Credits available / total", "num nowrap"],
      ["TD", "", "admin-table__actions"],
    ]);
    expect(cells[0]?.getAttribute("scope")).toBe("row");
  });

  it("shows its loading line, or what it has instead of rows", () => {
    act(() => root.render(<Table label="Sessions table" columns={columns} rows={null} rowKey={(r) => r.id} busy loadingRow="Loading sessions…" empty={<p>None</p>} />));
    const loading = host.querySelector(".admin-table__loading")!;
    expect(loading.textContent).toBe("Loading sessions…");
    expect(loading.getAttribute("colspan")).toBe("3");
    expect(loading.getAttribute("data-label")).toBe("");
    expect(host.querySelector('[role="region"]')?.getAttribute("aria-busy")).toBe("true");

    act(() => root.render(<Table label="x" columns={columns} rows={null} rowKey={(r) => r.id} loading={<p className="admin-muted">Loading…</p>} empty={<p>None</p>} />));
    expect(host.innerHTML).toBe('<p class="admin-muted">Loading…</p>');
    act(() => root.render(<Table label="x" columns={columns} rows={[]} rowKey={(r) => r.id} empty={<p className="empty__title">No payments</p>} />));
    expect(host.innerHTML).toBe('<p class="empty__title">No payments</p>');
  });
});
