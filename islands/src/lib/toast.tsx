// Toasts, with sonner's code (a tenth of an island's JS) loaded when it is first needed: when the
// reader starts to use the page (a key, a tap, a focus: a toast answers what they do), or when a
// toast is asked for before that (a flash left by the previous page). Until sonner has arrived
// and its Toaster has subscribed to its store, toasts wait here in order, so none is lost.
import { useEffect, useState } from "react";
import { dir, t } from "./i18n";

type Sonner = typeof import("sonner");
type Options = { description?: string; duration?: number };
type Kind = "success" | "error";

let loading: Promise<Sonner> | null = null;
/** sonner's `toast`, once a Toaster is listening. */
let live: Sonner["toast"] | null = null;
const waiting: [Kind, string, Options | undefined][] = [];
/** The mounted <Toasts /> waiting for the module (one per island root). */
const roots = new Set<(m: Sonner) => void>();

function load(): Promise<Sonner> {
  loading ??= import("sonner").then((m) => {
    for (const show of roots) show(m);
    return m;
  });
  return loading;
}

function show(kind: Kind, message: string, options?: Options): void {
  if (live) {
    live[kind](message, options);
    return;
  }
  waiting.push([kind, message, options]);
  void load();
}

/** The toasts' API the islands use: a success or an error, with an optional description. */
export const toast = {
  success: (message: string, options?: Options) => show("success", message, options),
  error: (message: string, options?: Options) => show("error", message, options),
};

/** Starts loading the toasts' code on the reader's first interaction with the page. */
function loadOnIntent(): void {
  const events = ["pointerdown", "keydown", "focusin"] as const;
  const go = () => {
    for (const e of events) removeEventListener(e, go, true);
    void load();
  };
  for (const e of events) addEventListener(e, go, { capture: true, passive: true });
}
if (typeof window !== "undefined") loadOnIntent();

/** Hands the waiting toasts to sonner once its Toaster (an earlier sibling) has subscribed. */
function Flush({ sonner }: { sonner: Sonner }) {
  useEffect(() => {
    if (live) return;
    live = sonner.toast;
    for (const [kind, message, options] of waiting.splice(0)) live[kind](message, options);
  }, [sonner]);
  return null;
}

/** Where an island's toasts appear: at the bottom (never over the header's Book Discovery Call
 * button), at the end of the line (the left on an Arabic page). */
export function Toasts() {
  const [sonner, setSonner] = useState<Sonner | null>(null);
  useEffect(() => {
    roots.add(setSonner);
    if (loading) void loading.then(setSonner);
    return () => void roots.delete(setSonner);
  }, []);
  if (!sonner) return null;
  const { Toaster } = sonner;
  return (
    <>
      <Toaster
        position={dir() === "rtl" ? "bottom-left" : "bottom-right"}
        dir={dir()}
        richColors
        closeButton
        containerAriaLabel={t("common.toast.region")}
        toastOptions={{ closeButtonAriaLabel: t("common.toast.close") }}
      />
      <Flush sonner={sonner} />
    </>
  );
}
