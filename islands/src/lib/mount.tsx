// Turns a component into an island module's `mount(element, props)`.
import { type ComponentType, StrictMode, startTransition, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { showFlash } from "./flash";
import { setCoachTimeZone } from "./format";
import { type Namespace, loadMessages } from "./i18n";
import { setDefaultValidityMonths } from "./site-settings";
import { Toasts } from "./toast";

/** A toast the previous page left for this one (e.g. 'Welcome back!' after /auth). */
function Flash() {
  useEffect(showFlash, []);
  return null;
}

/** Marks the island's root `data-ready` once every effect of the island above has run (so it
 * listens for its triggers itself; the runtime stops holding clicks for it). */
function Ready({ root }: { root: HTMLElement }) {
  useEffect(() => {
    root.setAttribute("data-ready", "");
  }, [root]);
  return null;
}

/**
 * An island module's `mount`: the island renders once the messages of its page's language have
 * loaded (`common` and `namespaces`; their download starts as soon as the island's code runs).
 */
export function mountIsland<P extends object>(Component: ComponentType<P>, namespaces: readonly Namespace[] = []) {
  const messages = loadMessages(namespaces).catch((e: unknown) => console.error("island messages failed to load", e));
  return (el: HTMLElement, props: P) => void messages.then(() => render(Component, el, props));
}

function render<P extends object>(Component: ComponentType<P>, el: HTMLElement, props: P) {
  // The coach's time zone (settings' time_zone): every session time is shown in it.
  const zone = (props as { timeZone?: unknown }).timeZone;
  if (typeof zone === "string") setCoachTimeZone(zone);
  setDefaultValidityMonths((props as { defaultValidityMonths?: unknown }).defaultValidityMonths);
  el.classList.add("island--live");
  const root = createRoot(el);
  // The first render as a transition: React renders it in slices of a few milliseconds and lets
  // the browser answer a tap between them, rather than one long task a phone cannot interrupt.
  startTransition(() =>
    root.render(
      <StrictMode>
        <Component {...props} />
        <Ready root={el} />
        <Toasts />
        <Flash />
      </StrictMode>,
    ),
  );
}
