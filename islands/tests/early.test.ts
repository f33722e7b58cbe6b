import { describe, expect, it } from "vitest";
import { startEarlyReads, takeEarlyRead } from "../src/lib/early";

/** A document whose app shell names `paths` for `role`. */
function page(paths: string | null, role = "client"): Document {
  const shell = paths === null ? null : { getAttribute: (name: string) => (name === "data-early-api" ? paths : role) };
  return { querySelector: () => shell } as unknown as Document;
}

describe("an app page's early API reads", () => {
  it("start for the signed-in role the page is for, and each is taken once", async () => {
    const holder = {};
    const asked: string[] = [];
    const get = (path: string) => {
      asked.push(path);
      return Promise.resolve(new Response(JSON.stringify({ path })));
    };
    const started = startEarlyReads(page("/api/auth/session /api/dashboard"), "signed_in=client", holder, get);
    expect(started).toEqual(["/api/auth/session", "/api/dashboard"]);
    expect(asked).toEqual(["/api/auth/session", "/api/dashboard"]);
    const read = takeEarlyRead("/api/dashboard", holder);
    expect(await (await read!).json()).toEqual({ path: "/api/dashboard" });
    expect(takeEarlyRead("/api/dashboard", holder)).toBeUndefined();
    expect(takeEarlyRead("/api/other", holder)).toBeUndefined();
  });

  it("start nothing for a signed-out visitor, the other role, or a page without reads", () => {
    const get = () => {
      throw new Error("nothing should be fetched");
    };
    expect(startEarlyReads(page("/api/dashboard"), "", {}, get)).toEqual([]);
    expect(startEarlyReads(page("/api/admin/stats", "admin"), "signed_in=client", {}, get)).toEqual([]);
    expect(startEarlyReads(page(null), "signed_in=admin", {}, get)).toEqual([]);
    expect(startEarlyReads(page("https://evil.example/x"), "signed_in=client", {}, get)).toEqual([]);
  });
});
