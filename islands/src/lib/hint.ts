// The API's hint of who is signed in (`signed_in=client|admin`, set and cleared beside the
// HttpOnly session cookie). It lets the static pages' header say "Dashboard" or "Admin" without
// React or a request, and spares signed-out visitors a session check that would fail (and log
// a console error). It grants nothing: the API decides every request by the session alone.
export type HintRole = "client" | "admin";

export function signedInHint(cookies: string = document.cookie): HintRole | null {
  const value = /(?:^|;\s*)signed_in=(client|admin)(?:;|$)/.exec(cookies)?.[1];
  return (value as HintRole | undefined) ?? null;
}
