// Pure helpers for the resources ?tag= filter. Tags compare case-insensitively.
import { pageText } from "./texts";

/** The tag asked for in a query string (location.search), or "". */
export function tagFromQuery(search: string): string {
  return new URLSearchParams(search).get("tag") ?? "";
}

/** Whether a card with these tags (data-tags, joined with "|") shows for `tag`; "" shows all. */
export function matchesTag(tags: string | undefined, tag: string): boolean {
  const wanted = tag.toLowerCase();
  return !wanted || (tags ?? "").toLowerCase().split("|").includes(wanted);
}

/** Whether a tag button (data-tag) is the tag being filtered on. */
export function sameTag(a: string | undefined, b: string): boolean {
  return (a ?? "").toLowerCase() === b.toLowerCase();
}

/** The text of the filter's status region. */
export function filterStatus(tag: string, shown: number): string {
  return tag ? pageText("page.filter.status", { count: shown, tag }) : "";
}
