// Who is signed in, and where each role belongs (spec §6: admins → /admin, clients →
// /dashboard, signed-out visitors → /auth).
import type { Role, Session } from "../api/types";
import { ApiError, GET, POST } from "./api";
import { signedInHint } from "./hint";

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

export const signUp = (fullName: string, email: string, password: string, phone?: string) =>
  POST("/api/auth/sign-up", { full_name: fullName, email, password, phone: phone || undefined });

export const signOut = () => POST("/api/auth/sign-out", {});

/** The page a role lands on after signing in. */
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

export function go(path: string): void {
  window.location.assign(path);
}
