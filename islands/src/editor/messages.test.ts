// The editor's own texts (its loading, preview and per-language field texts) exist in both
// languages: a text added in one catalogue only would show English on the Arabic page, or a key.
import { describe, expect, it } from "vitest";
import ar from "./messages.ar.json";
import en from "./messages.en.json";

describe("the editor's texts", () => {
  it("have the same keys in English and Arabic, none empty", () => {
    expect(Object.keys(ar).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of [...Object.entries(en), ...Object.entries(ar)]) expect(text.trim(), key).not.toBe("");
  });

  it("are Arabic in the Arabic catalogue", () => {
    for (const [key, text] of Object.entries(ar)) expect(text, key).toMatch(/[\u0600-\u06FF]/);
  });
});
