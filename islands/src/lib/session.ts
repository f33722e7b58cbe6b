// Who is signed in, and where each role belongs (spec §6: admins → /admin, clients →
// /dashboard, signed-out visitors → /auth).
import type { Role, Session } from "../api/types";
import { ApiError, GET, POST } from "./api";
import { signedInHint } from "./hint";
import { lang, localPath } from "./i18n";

export { signedInHint };

export type { Role, Session };

/** The current session, or null when signed out. Other failures throw. */
export async function currentSession(): Promise<Session | null> {
  if (!signedInHint()) return null;
  try {
    return await GET("/api/auth/session");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

export const signIn = (email: string, password: string) => POST("/api/auth/sign-in", { email, password });

/** A new account; its emails are written in the page's language (issue 21). */
export const signUp = (fullName: string, email: string, password: string, phone?: string) =>
  POST("/api/auth/sign-up", { full_name: fullName, email, password, phone: phone || undefined, language: lang() });

export const signOut = () => POST("/api/auth/sign-out", {});

/** The page a role lands on after signing in (in English; `go` and links add the page's
 *  language: ./i18n `localPath`). */
export function homeFor(role: Role): string {
  return role === "admin" ? "/admin" : "/dashboard";
}

/** Where a visitor must go instead of `page`, or null to stay (spec §2, §6). */
export function redirectFor(page: "auth" | "dashboard" | "book-session" | "admin", session: Session | null): string | null {
  if (!session) return page === "auth" ? null : "/auth";
  const role = session.profile.role;
  if (page === "auth") return homeFor(role);
  if (page === "admin") return role === "admin" ? null : "/dashboard";
  return role === "admin" ? "/admin" : null;
}

/** Leaves for `path`, a page of the site in this page's language (`/dashboard` →
 *  `/ar/dashboard` on an Arabic page), or any other address as it is. */
export function go(path: string): void {
  window.location.assign(localPath(path));
}
