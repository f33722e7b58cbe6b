import { describe, expect, it } from "vitest";
import { packageFrom } from "../src/islands/PurchaseDialog";

const button = (dataset: Record<string, string>) => ({ dataset }) as unknown as HTMLElement;

describe("the Buy Now button's package", () => {
  it("is read from the button's data attributes, with the price in piastres", () => {
    expect(
      packageFrom(button({ buyPackage: "individual-5", packageType: "individual", packageName: "Momentum Package", sessions: "5", amount: "2025000" })),
    ).toEqual({ id: "individual-5", type: "individual", name: "Momentum Package", sessions: 5, price: { minor: 2025000, currency: "EGP" }, methods: [] });
  });
  it("carries the methods the package may be paid with, in the page's order, and nothing else", () => {
    const methods = (list: string) =>
      packageFrom(button({ buyPackage: "individual-5", packageType: "individual", packageName: "M", sessions: "5", amount: "2025000", paymentMethods: list }))?.methods;
    expect(methods("creditcard meezaqr valu")).toEqual(["creditcard", "meezaqr", "valu"]);
    expect(methods("  creditcard  <b>x</b> valu ")).toEqual(["creditcard", "valu"]);
    expect(methods("")).toEqual([]);
  });
  it("is group for group packages", () => {
    expect(packageFrom(button({ buyPackage: "group-10", packageType: "group", packageName: "Team", sessions: "10", amount: "8100000" }))?.type).toBe("group");
  });
  it("is nothing when the button is incomplete", () => {
    expect(packageFrom(button({ buyPackage: "x", sessions: "5", amount: "1" }))).toBeNull();
  });
});
