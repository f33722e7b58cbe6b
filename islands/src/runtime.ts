// Mounts the islands of a page. Each `<div data-island data-src data-props data-when>` gets
// its module imported on load, when the browser is idle, or when it scrolls into view, and the
// module's `mount(element, props)` renders into it (replacing the no-JS fallback).

type Mount = (el: HTMLElement, props: unknown) => void;

function start(el: HTMLElement): void {
  const src = el.dataset.src;
  if (!src) return;
  let props: unknown = {};
  try {
    props = JSON.parse(el.dataset.props ?? "{}");
  } catch {
    console.error(`island ${el.dataset.island}: props are not JSON`);
  }
  import(src)
    .then((m: { mount: Mount }) => m.mount(el, props))
    .catch((e: unknown) => console.error(`island ${el.dataset.island} failed to load`, e));
}

for (const el of document.querySelectorAll<HTMLElement>("[data-island][data-src]")) {
  const when = el.dataset.when ?? "load";
  if (when === "visible" && "IntersectionObserver" in window) {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        start(el);
      }
    });
    io.observe(el);
  } else if (when === "idle") {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200));
    idle(() => start(el));
  } else {
    start(el);
  }
}
