import { describe, expect, it } from "vitest";
import { GET, POST, urlOf } from "../src/lib/api";

// The calls are typed by the API's OpenAPI document (schema.d.ts): `tsc --noEmit`, which the
// test script runs, fails if any line below marked @ts-expect-error compiles.
describe("the typed API client", () => {
  it("refuses at compile time a route the API does not have, or a call without its path's values", () => {
    const calls = [
      // @ts-expect-error: the API has no such route
      () => GET("/api/no-such-route"),
      // @ts-expect-error: /api/admin/clients/{id} needs its id
      () => GET("/api/admin/clients/{id}"),
      // @ts-expect-error: sign-in takes { email, password }, not a number
      () => POST("/api/auth/sign-in", 42),
      // @ts-expect-error: sign-in is a POST
      () => GET("/api/auth/sign-in"),
    ];
    expect(calls).toHaveLength(4);
  });
  it("fills the path's values, encoded, and the query's set fields in order", () => {
    expect(urlOf("/api/receipts/{payment_id}", { path: { payment_id: "a b" } })).toBe("/api/receipts/a%20b");
    expect(urlOf("/api/dashboard", { query: { status: undefined } })).toBe("/api/dashboard");
    expect(urlOf("/api/admin/exports/payments", { query: { from: "2026-11-01", to: "2026-11-30" } })).toBe(
      "/api/admin/exports/payments?from=2026-11-01&to=2026-11-30",
    );
  });
});
