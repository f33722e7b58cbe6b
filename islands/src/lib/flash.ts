// A toast that survives a redirect: /auth signs in, then goes to /dashboard or /admin at once,
// so its 'Welcome back!' is shown by the page it lands on (spec §8's texts, long enough to read).
import { toast } from "./toast";

const KEY = "flash-toast";
/** Long enough to read a title and a sentence (sonner's default is 4 s). */
export const FLASH_DURATION_MS = 8000;

interface Flash {
  title: string;
  description: string;
}

/** Remembers a success toast for the next page of this tab. */
export function flashAfterRedirect(title: string, description: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ title, description } satisfies Flash));
  } catch {
    // Storage refused (private mode quotas): the page still works, only the toast is lost.
  }
}

/** Takes the remembered toast, once. */
export function takeFlash(): Flash | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    sessionStorage.removeItem(KEY);
    const f = JSON.parse(raw) as Partial<Flash>;
    return typeof f.title === "string" && typeof f.description === "string" ? { title: f.title, description: f.description } : null;
  } catch {
    return null;
  }
}

/** Shows the remembered toast, if any. */
export function showFlash(): void {
  const f = takeFlash();
  if (f) toast.success(f.title, { description: f.description, duration: FLASH_DURATION_MS });
}
