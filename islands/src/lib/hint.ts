// The API's hint of who is signed in (`signed_in=client|admin`, set and cleared beside the
// HttpOnly session cookie). It lets the static pages' header say "Dashboard" or "Admin" without
// React or a request, and spares signed-out visitors a session check that would fail (and log
// a console error). It grants nothing: the API decides every request by the session alone.
export type HintRole = "client" | "admin";

export function signedInHint(cookies: string = document.cookie): HintRole | null {
  const value = /(?:^|;\s*)signed_in=(client|admin)(?:;|$)/.exec(cookies)?.[1];
  return (value as HintRole | undefined) ?? null;
}

/** Where the header's account link goes, and what it says, for who is signed in. */
export function accountLink(role: HintRole | null): { href: string; label: string } {
  if (role === "admin") return { href: "/admin", label: "Admin" };
  if (role === "client") return { href: "/dashboard", label: "Dashboard" };
  return { href: "/auth", label: "Client Login" };
}

/** Points the header's account link(s) (`data-account-link`) at the signed-in home, if any. */
export function showAccountLink(role: HintRole | null = signedInHint()): void {
  const { href, label } = accountLink(role);
  for (const link of document.querySelectorAll<HTMLAnchorElement>("[data-account-link]")) {
    if (link.getAttribute("href") === href) continue;
    link.href = href;
    link.textContent = label;
    if (location.pathname.startsWith(href)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}
