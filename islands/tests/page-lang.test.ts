// The content pages' script on an Arabic page: its texts load in Arabic (src/i18n/ar/page.json,
// forms.json), the header's account link goes to the Arabic pages, and the forms answer in
// Arabic. (tests/page.test.ts checks the same script in English, as it ran before.)
import { describe, expect, it } from "vitest";
import { accountLink } from "../src/lib/account-link";
import { filterStatus } from "../src/page/filter";
import { loadFormsTexts } from "../src/page/forms-texts";
import { loadPageTexts } from "../src/page/texts";
import { rulesFor } from "../src/page/validate";

describe("the content pages' script in Arabic", () => {
  it("says how many resources a tag shows, in Arabic's plural forms", async () => {
    await loadPageTexts("ar");
    expect(filterStatus("القيادة", 1)).toBe("عرض عنصر واحد بالوسم «القيادة»");
    expect(filterStatus("القيادة", 2)).toBe("عرض عنصرين بالوسم «القيادة»");
    expect(filterStatus("القيادة", 5)).toBe("عرض 5 عناصر بالوسم «القيادة»");
    expect(filterStatus("القيادة", 12)).toBe("عرض 12 عنصرًا بالوسم «القيادة»");
    expect(filterStatus("القيادة", 0)).toBe("لا توجد عناصر بالوسم «القيادة»");
    expect(filterStatus("", 3)).toBe("");
  });

  it("points the header's account link at the Arabic pages", async () => {
    await loadPageTexts("ar");
    expect(accountLink(null, "ar")).toEqual({ href: "/ar/auth", label: "دخول العملاء" });
    expect(accountLink("client", "ar")).toEqual({ href: "/ar/dashboard", label: "لوحة التحكم" });
    expect(accountLink("admin", "ar")).toEqual({ href: "/ar/admin", label: "لوحة الإدارة" });
  });

  it("answers the newsletter and contact forms in Arabic", async () => {
    await loadFormsTexts("ar");
    const newsletter = rulesFor("newsletter")!;
    expect(newsletter.validate(() => "")).toEqual(["يُرجى إدخال بريدك الإلكتروني", "البريد الإلكتروني مطلوب للاشتراك.", ["email"]]);
    expect(newsletter.failure).toEqual(["تعذّر الاشتراك", "يُرجى المحاولة لاحقًا."]);
    const contact = rulesFor("contact")!;
    expect(contact.validate((n) => ({ name: "منى", email: "mona@example.com", message: "مرحبًا", form_type: "discovery_call" })[n] ?? "")).toEqual([
      "بيانات غير مكتملة",
      "رقم الهاتف مطلوب لطلبات المكالمة التعريفية.",
      ["phone"],
    ]);
  });
});
