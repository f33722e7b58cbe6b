// Turns a component into an island module's `mount(element, props)`.
import { type ComponentType, StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "sonner";
import { showFlash } from "./flash";
import { setCoachTimeZone } from "./format";
import { setDefaultValidityMonths } from "./site-settings";

/** A toast the previous page left for this one (e.g. 'Welcome back!' after /auth). */
function Flash() {
  // After the Toaster (an earlier sibling) has subscribed to the toast store.
  useEffect(() => {
    const t = setTimeout(showFlash, 0);
    return () => clearTimeout(t);
  }, []);
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

export function mountIsland<P extends object>(Component: ComponentType<P>) {
  return (el: HTMLElement, props: P) => {
    // The coach's time zone (settings' time_zone): every session time is shown in it.
    const zone = (props as { timeZone?: unknown }).timeZone;
    if (typeof zone === "string") setCoachTimeZone(zone);
    setDefaultValidityMonths((props as { defaultValidityMonths?: unknown }).defaultValidityMonths);
    el.classList.add("island--live");
    createRoot(el).render(
      <StrictMode>
        <Component {...props} />
        <Ready root={el} />
        {/* Bottom: a toast never covers the header and its Book Discovery Call button. */}
        <Toaster position="bottom-right" richColors closeButton />
        <Flash />
      </StrictMode>,
    );
  };
}
