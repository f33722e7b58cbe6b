// Mounts the islands of a page. Each `<div data-island data-src data-props data-when>` gets
// its module imported on load, when the browser is idle, when it scrolls into view, or on
// intent: the first hover, focus or click of an element matching its `data-trigger` (a dialog
// whose code is not worth fetching until someone reaches for it). The module's
// `mount(element, props)` renders into it (replacing the no-JS fallback).

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

/**
 * Loads the island on the first intent to use one of its triggers. A click that comes before
 * the island is listening is not lost: the trigger answers at once (aria-busy, styled as
 * busy) and carries `data-pending-click`, which the island acts on when it mounts (it marks
 * its root `data-ready` once it listens itself).
 */
function onIntent(el: HTMLElement, selector: string): void {
  let started = false;
  const handler = (e: Event) => {
    const trigger = e.target instanceof Element ? e.target.closest<HTMLElement>(selector) : null;
    if (!trigger || el.hasAttribute("data-ready")) return;
    if (e.type === "click") {
      e.preventDefault();
      for (const other of document.querySelectorAll<HTMLElement>("[data-pending-click]")) {
        other.removeAttribute("data-pending-click");
        other.removeAttribute("aria-busy");
      }
      trigger.setAttribute("data-pending-click", "");
      trigger.setAttribute("aria-busy", "true");
    }
    if (!started) {
      started = true;
      start(el);
    }
  };
  for (const type of ["pointerover", "focusin", "click"]) document.addEventListener(type, handler);
}

/**
 * Runs `fn` once the page has painted: the page's own HTML (its heading, the loading card)
 * shows before the island's code downloads and runs, not after React's first render.
 */
function afterFirstPaint(fn: () => void): void {
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      fn();
    }
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  // A page opened in a background tab paints no frame until it is shown: it mounts anyway.
  setTimeout(once, 300);
}

/**
 * Fetches every file of the islands mounted on load at once (the build lists them in this
 * script's `data-preload`), so an island's own imports do not wait for the island to arrive.
 * Not from the page's head: the island's code (React alone is 60 KB gzip) would share the
 * network with the stylesheets and fonts the first paint waits for.
 */
function preloadIslands(): void {
  const list = document.querySelector<HTMLScriptElement>("script[data-preload]")?.dataset.preload ?? "";
  for (const href of list.split(" ").filter(Boolean)) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

const onLoad: HTMLElement[] = [];
for (const el of document.querySelectorAll<HTMLElement>("[data-island][data-src]")) {
  const when = el.dataset.when ?? "load";
  if (when === "intent" && el.dataset.trigger) {
    onIntent(el, el.dataset.trigger);
  } else if (when === "visible" && "IntersectionObserver" in window) {
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
    onLoad.push(el);
  }
}
if (onLoad.length > 0) {
  afterFirstPaint(() => {
    preloadIslands();
    onLoad.forEach(start);
  });
}
