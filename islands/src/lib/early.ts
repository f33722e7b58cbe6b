// An app page's first API read, started by the small page script as soon as the page is
// parsed, while the island's React code is still downloading; the island's first `api()` call
// for that path takes the response instead of asking again. On a phone this takes the read off
// the critical path to the page's main content. The app shell names its reads in
// `data-early-api` (space-separated paths) and whose page it is in `data-early-for` (client or
// admin); nothing starts for anyone else (a signed-out visitor, or a client on an admin page),
// whose read would only fail and log an error.
import { signedInHint } from "./hint";

type Started = Map<string, Promise<Response>>;
const GLOBAL = "__earlyApiReads";

type Holder = { [GLOBAL]?: Started };

/** Starts the reads the page's app shell names; returns the paths started. */
export function startEarlyReads(
  doc: Document = document,
  cookies: string = document.cookie,
  holder: Holder = window as unknown as Holder,
  get: (path: string) => Promise<Response> = (path) =>
    fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } }),
): string[] {
  const shell = doc.querySelector("[data-early-api]");
  const paths = shell?.getAttribute("data-early-api")?.split(/\s+/).filter((p) => p.startsWith("/api/"));
  const role = signedInHint(cookies);
  if (!paths?.length || !role || shell?.getAttribute("data-early-for") !== role) return [];
  const started: Started = new Map();
  for (const path of paths) {
    const read = get(path);
    read.catch(() => {}); // a failure is the island's to report, when it takes the read
    started.set(path, read);
  }
  holder[GLOBAL] = started;
  return paths;
}

/** The early read of `path`, once: a later call (a refresh) asks the API again. */
export function takeEarlyRead(path: string, holder: Holder = window as unknown as Holder): Promise<Response> | undefined {
  const started = holder[GLOBAL];
  const read = started?.get(path);
  started?.delete(path);
  return read;
}
