import { describe, expect, it } from "vitest";
import { joined, split } from "./Translated";

describe("the translated widget's value", () => {
  it("shows a text given per language in its two inputs, and a plain one as English", () => {
    expect(split({ en: "Single Session", ar: "جلسة منفردة" }, false)).toEqual({ en: "Single Session", ar: "جلسة منفردة" });
    expect(split("Single Session", false)).toEqual({ en: "Single Session", ar: "" });
    expect(split(undefined, false)).toEqual({ en: "", ar: "" });
  });

  it("shows a list one item per line", () => {
    expect(split({ en: ["a", "b"], ar: ["أ"] }, true)).toEqual({ en: "a\nb", ar: "أ" });
    expect(split(["a", "b"], true)).toEqual({ en: "a\nb", ar: "" });
  });

  it("writes a plain value without Arabic, and both languages with it", () => {
    expect(joined({ en: "Single Session", ar: "" }, false)).toBe("Single Session");
    expect(joined({ en: "Single Session", ar: "جلسة منفردة" }, false)).toEqual({ en: "Single Session", ar: "جلسة منفردة" });
    expect(joined({ en: "a\n\n b \n", ar: "  " }, true)).toEqual(["a", "b"]);
    expect(joined({ en: "a\nb", ar: "أ\nب" }, true)).toEqual({ en: ["a", "b"], ar: ["أ", "ب"] });
  });
});
