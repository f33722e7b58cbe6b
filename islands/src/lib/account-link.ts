// The header's account link ("Client Login", or "Dashboard" / "Admin" for whoever is signed in),
// set by the content pages' script and again by the sign-in forms of the purchase dialog. Its
// texts are the page script's (../page/texts), in the page's language.
import { type HintRole, signedInHint } from "./hint";
import { type Lang, pageLang, pathIn } from "./lang";
import { loadPageTexts, pageText } from "../page/texts";

/** Where the header's account link goes, and what it says, for who is signed in (in the page's
 *  language once its texts are loaded: ../page/texts). */
export function accountLink(role: HintRole | null, lang: Lang = pageLang()): { href: string; label: string } {
  if (role === "admin") return { href: pathIn(lang, "/admin"), label: pageText("page.account.admin") };
  if (role === "client") return { href: pathIn(lang, "/dashboard"), label: pageText("page.account.dashboard") };
  return { href: pathIn(lang, "/auth"), label: pageText("page.account.signIn") };
}

/** Points the header's account link(s) (`data-account-link`) at the signed-in home, if any. */
export function showAccountLink(role: HintRole | null = signedInHint()): void {
  // English is at hand; another language's texts load first.
  if (pageLang() === "en") setAccountLink(role);
  else void loadPageTexts().then(() => setAccountLink(role));
}

function setAccountLink(role: HintRole | null): void {
  const { href, label } = accountLink(role);
  for (const link of document.querySelectorAll<HTMLAnchorElement>("[data-account-link]")) {
    if (link.getAttribute("href") === href) continue;
    link.href = href;
    link.textContent = label;
    if (location.pathname.startsWith(href)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}
