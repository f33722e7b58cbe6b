// Small progressive enhancements for the static pages. Every page works without this file;
// it only adds behaviour to markup the templates already render.
import { carouselSettle } from "./carousel";
import { galleryIndex, isPast } from "./events";
import { filterStatus, matchesTag, sameTag, tagFromQuery } from "./filter";
import { loadPageTexts, pageText } from "./texts";
import { showAccountLink } from "../lib/account-link";
import { startEarlyReads } from "../lib/early";

const $ = <E extends Element = HTMLElement>(sel: string, root: ParentNode = document) => root.querySelector<E>(sel);
const $$ = <E extends Element = HTMLElement>(sel: string, root: ParentNode = document) => [...root.querySelectorAll<E>(sel)];
/** The nearest element matching `sel` from an event's target. */
const closest = (e: Event, sel: string) => (e.target instanceof Element ? e.target.closest<HTMLElement>(sel) : null);
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;

/* Mobile menu: toggles, closes on a link or the booking button, and on Escape. */
function initMenu() {
  const toggle = $("[data-menu-toggle]");
  const menu = toggle && document.getElementById(toggle.getAttribute("aria-controls") ?? "");
  if (!toggle || !menu) return;
  const isOpen = () => toggle.getAttribute("aria-expanded") === "true";
  const setOpen = (open: boolean) => {
    toggle.setAttribute("aria-expanded", String(open));
    menu.hidden = !open;
  };
  toggle.addEventListener("click", () => setOpen(!isOpen()));
  menu.addEventListener("click", (e) => {
    if (closest(e, "a, button")) setOpen(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen()) {
      setOpen(false);
      toggle.focus();
    }
  });
}

/* Native dialogs: open the discovery call dialog, close any dialog on a backdrop click. */
function initDialogs() {
  const discovery = document.getElementById("discovery-call-dialog") as HTMLDialogElement | null;
  let opener: HTMLElement | null = null;
  document.addEventListener("click", (e) => {
    const button = closest(e, "[data-open-discovery]");
    if (!button || !discovery) return;
    e.preventDefault();
    opener = button;
    if (!discovery.open) discovery.showModal();
  });
  discovery?.addEventListener("close", () => {
    // The opener may sit in the (now closed) mobile menu: fall back to the menu button.
    const target = opener && opener.offsetParent ? opener : $("[data-menu-toggle]");
    target?.focus();
  });
  for (const dialog of $$<HTMLDialogElement>("dialog")) {
    dialog.addEventListener("click", (e) => {
      if (closest(e, "[data-close-dialog]")) return dialog.close();
      // The panel fills the dialog box, so a click on the dialog itself is a backdrop click.
      if (e.target === dialog) dialog.close();
    });
  }
}

/* Logo carousel: advances one logo every 2000 ms, loops, pauses on hover and focus. */
function initCarousel(root: HTMLElement) {
  const track = $("[data-carousel-track]", root);
  if (!track) return;
  const count = $$("li:not([data-carousel-clone])", track).length;
  if (reducedMotion || count < 2) return;
  root.classList.add("is-animated");
  const toggle = $("[data-carousel-toggle]", root);
  let index = 0;
  let hovered = false;
  let focused = false;
  let stopped = false;

  const step = () => {
    const items = track.children as HTMLCollectionOf<HTMLElement>;
    return (items[1]?.offsetLeft ?? 0) - (items[0]?.offsetLeft ?? 0);
  };
  const move = (animate: boolean) => {
    track.classList.toggle("is-moving", animate);
    track.style.transform = `translateX(${-index * step()}px)`;
  };
  track.addEventListener("transitionend", (e) => {
    if (e.target !== track) return;
    const settled = carouselSettle(index, count);
    if (settled !== index) {
      index = settled;
      move(false);
    }
  });
  setInterval(() => {
    if (hovered || focused || stopped || document.hidden) return;
    index += 1;
    move(true);
  }, 2000);

  root.addEventListener("mouseenter", () => (hovered = true));
  root.addEventListener("mouseleave", () => (hovered = false));
  root.addEventListener("focusin", () => (focused = true));
  root.addEventListener("focusout", () => (focused = false));
  addEventListener("resize", () => move(false));
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      stopped = !stopped;
      toggle.setAttribute("aria-pressed", String(stopped));
      toggle.textContent = pageText(stopped ? "page.carousel.play" : "page.carousel.pause");
    });
  }
}

/* Events: past or upcoming is decided again in the visitor's browser, against now. */
function initEvents() {
  const now = Date.now();
  for (const card of $$("[data-starts-at]")) {
    const past = isPast(card.dataset.startsAt, now);
    if (past === null) continue;
    card.classList.toggle("is-past", past);
    for (const el of $$("[data-when]", card)) el.hidden = (el.dataset.when === "past") !== past;
  }
  for (const button of $$("[data-gallery-open]")) {
    button.addEventListener("click", () => {
      const gallery = document.getElementById(button.dataset.galleryOpen ?? "") as HTMLDialogElement | null;
      if (gallery) openGallery(gallery, Number(button.dataset.index) || 0);
    });
  }
  for (const gallery of $$("[data-gallery]")) {
    $("[data-gallery-prev]", gallery)?.addEventListener("click", () => showSlide(gallery, -1));
    $("[data-gallery-next]", gallery)?.addEventListener("click", () => showSlide(gallery, 1));
    gallery.addEventListener("keydown", (e) => {
      if (e.key === "ArrowLeft") showSlide(gallery, -1);
      if (e.key === "ArrowRight") showSlide(gallery, 1);
    });
  }
}

function openGallery(gallery: HTMLDialogElement, index: number) {
  gallery.dataset.index = String(index);
  showSlide(gallery, 0);
  gallery.showModal();
}

function showSlide(gallery: HTMLElement, delta: number) {
  const slides = $$("[data-slide]", gallery);
  const index = galleryIndex(Number(gallery.dataset.index), delta, slides.length);
  gallery.dataset.index = String(index);
  slides.forEach((slide, i) => (slide.hidden = i !== index));
  const counter = $("[data-gallery-count]", gallery);
  if (counter) counter.textContent = `${index + 1} / ${slides.length}`;
}

/* Resources: ?tag= filter, set by the tag buttons, reset by "Clear filter". */
function initResourceFilter(root: HTMLElement) {
  const cards = $$("[data-tags]", root);
  const buttons = $$("[data-tag]", root);
  const clear = $("[data-clear-filter]", root);
  const status = $("[data-filter-status]", root);
  const empty = $("[data-filter-empty]", root);

  const apply = (tag: string, updateUrl: boolean) => {
    let shown = 0;
    for (const card of cards) {
      const match = matchesTag(card.dataset.tags, tag);
      card.hidden = !match;
      if (match) shown += 1;
    }
    for (const b of buttons) b.setAttribute("aria-pressed", String(sameTag(b.dataset.tag, tag)));
    if (clear) clear.hidden = !tag;
    if (empty) empty.hidden = !tag || shown > 0;
    if (status) status.textContent = filterStatus(tag, shown);
    if (updateUrl) {
      const url = new URL(location.href);
      if (tag) url.searchParams.set("tag", tag);
      else url.searchParams.delete("tag");
      history.replaceState(history.state, "", url);
    }
  };

  for (const b of buttons) {
    b.addEventListener("click", () => apply(b.getAttribute("aria-pressed") === "true" ? "" : (b.dataset.tag ?? ""), true));
  }
  clear?.addEventListener("click", () => {
    apply("", true);
    buttons[0]?.focus();
  });
  const initial = tagFromQuery(location.search);
  if (initial) apply(initial, false);
}

/* Brochure link: 'Downloading...' for 1500 ms; the download itself is the browser's. */
function initBrochure() {
  for (const link of $$("[data-brochure]")) {
    const label = $("[data-brochure-label]", link) || link;
    const text = label.textContent;
    link.addEventListener("click", () => {
      label.textContent = pageText("page.brochure.downloading");
      link.setAttribute("aria-busy", "true");
      setTimeout(() => {
        label.textContent = text;
        link.removeAttribute("aria-busy");
      }, 1500);
    });
  }
}

/* Videos: a link to YouTube becomes a privacy-enhanced player on click. */
function initVideos() {
  document.addEventListener("click", (e) => {
    const poster = closest(e, "[data-embed]");
    if (!poster || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const src = new URL(poster.dataset.embed ?? "");
    src.searchParams.set("autoplay", "1");
    const frame = document.createElement("iframe");
    frame.src = src.href;
    frame.title = poster.dataset.title ?? "";
    frame.allow = "accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture";
    frame.allowFullscreen = true;
    frame.referrerPolicy = "strict-origin-when-cross-origin";
    poster.replaceWith(frame);
    frame.focus();
  });
}

/* Forms: the contact form shows its discovery-call fields only for discovery calls; submitting
   any of the forms loads forms.ts (validation and the POST) on first use. */
function initContactForm(form: HTMLFormElement) {
  const formType = form.elements.namedItem("form_type") as RadioNodeList | HTMLInputElement | null;
  const phone = form.elements.namedItem("phone") as HTMLInputElement | null;
  const sync = () => {
    const discovery = formType?.value === "discovery_call";
    for (const el of $$("[data-discovery-only]", form)) {
      el.hidden = !discovery;
      for (const input of $$<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>("input, select, textarea", el)) {
        input.disabled = !discovery;
      }
    }
    if (phone) phone.required = discovery;
  };
  form.addEventListener("change", (e) => {
    if (e.target instanceof Element && e.target.getAttribute("name") === "form_type") sync();
  });
  // "reset" fires before the fields are reset.
  form.addEventListener("reset", () => setTimeout(sync));
  sync();
}

function initFormSubmit(form: HTMLFormElement) {
  form.noValidate = true;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const { submit } = await import("./forms");
    void submit(form);
  });
}

/* Arabic web fonts: on a page with Arabic text, once it has painted its first content and
   loaded, the brand's Arabic companions replace the device's Arabic font (site.css, "Arabic"). */
function initArabicFonts() {
  if (!$('[lang|="ar"]')) return;
  const swapIn = () => document.documentElement.classList.add("fonts-arabic");
  const afterLoad = () => (document.readyState === "complete" ? swapIn() : addEventListener("load", swapIn, { once: true }));
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) return afterLoad();
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    afterLoad();
  }).observe({ type: "paint", buffered: true });
}

// The header's "Client Login" becomes "Dashboard" or "Admin" for whoever is signed in. On a page
// in another language than English, its texts start loading at once (the script's own ones
// arrive before anyone clicks).
void loadPageTexts();
startEarlyReads();
showAccountLink();
initMenu();
initDialogs();
$$("[data-carousel]").forEach(initCarousel);
initEvents();
$$("[data-resource-filter]").forEach(initResourceFilter);
initBrochure();
initVideos();
initArabicFonts();
$$<HTMLFormElement>("[data-contact-form]").forEach(initContactForm);
// The emailed confirmation link carries the token in the query; the button sends it.
$$<HTMLFormElement>("[data-confirm-form]").forEach((f) => {
  const token = f.elements.namedItem("token") as HTMLInputElement | null;
  if (token) token.value = new URLSearchParams(location.search).get("token") ?? "";
});
$$<HTMLFormElement>("form[data-endpoint][data-module]").forEach(initFormSubmit);
