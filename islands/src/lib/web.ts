// Addresses the islands put in an href.

/** An address safe to put in an href: http(s) only, anything else (javascript:, junk) is null. */
export function webUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}
