// Turns a component into an island module's `mount(el, props)`.
import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "sonner";

export function mountIsland<P extends object>(Component: ComponentType<P>) {
  return (el: HTMLElement, props: P) => {
    el.classList.add("island--live");
    createRoot(el).render(
      <StrictMode>
        <Component {...props} />
        <Toaster position="top-right" richColors closeButton />
      </StrictMode>,
    );
  };
}
