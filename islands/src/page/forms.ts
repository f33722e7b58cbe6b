// Loaded by site.ts the first time a visitor submits the newsletter, contact or confirm form.
// Validates with the product's messages (in the page's language), then POSTs the fields as JSON
// to the form's data-endpoint, with the page's language, and reports the result in the form's
// status region.
import { pageLang } from "../lib/lang";
import { formsText, loadFormsTexts } from "./forms-texts";
import { rulesFor } from "./validate";

const field = (form: HTMLFormElement, name: string) =>
  form.elements.namedItem(name) as (HTMLElement & { value?: string }) | RadioNodeList | null;

function setStatus(form: HTMLFormElement, state: "error" | "success", [title, text]: readonly [string, string, ...unknown[]]) {
  const status = form.querySelector<HTMLElement>("[data-form-status]");
  if (!status) return;
  status.dataset.state = state;
  const strong = document.createElement("strong");
  strong.textContent = title;
  status.replaceChildren(strong, ` ${text}`);
}

export async function submit(form: HTMLFormElement): Promise<void> {
  await loadFormsTexts();
  const kind = rulesFor(form.dataset.form);
  const button = form.querySelector<HTMLButtonElement>("[type=submit]");
  if (!kind || !button || button.disabled) return;
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");

  const problem = kind.validate((name) => field(form, name)?.value ?? "");
  if (problem) {
    const fields = problem[2];
    for (const name of fields) (field(form, name) as HTMLElement | null)?.setAttribute("aria-invalid", "true");
    if (fields[0]) (field(form, fields[0]) as HTMLElement | null)?.focus();
    return setStatus(form, "error", problem);
  }

  const data: Record<string, FormDataEntryValue> = Object.fromEntries(new FormData(form));
  // The subscriber's or sender's emails are written in the page's language (issue 21).
  if (form.dataset.form !== "confirm") data.language ??= pageLang();
  const label = button.textContent;
  button.disabled = true;
  button.textContent = formsText("forms.sending");
  try {
    const res = await fetch(form.dataset.endpoint ?? "", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(data),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    setStatus(form, "success", kind.success(data));
    if (form.dataset.form === "confirm") button.hidden = true;
    else form.reset();
  } catch {
    setStatus(form, "error", kind.failure);
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}
