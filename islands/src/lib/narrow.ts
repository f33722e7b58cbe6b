// Whether the screen is a phone's: the width under which islands.css turns every `.data-table`
// into cards (47.99em). Views with many short rows (the client page's ledger and payments) use
// it to show a compact table of their own there, one short row per entry, instead of a card
// of five or seven labelled lines.
import { useEffect, useState } from "react";

const NARROW = "(max-width: 47.99em)";

export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(NARROW).matches ?? false);
  useEffect(() => {
    const m = window.matchMedia?.(NARROW);
    if (!m) return;
    const on = () => setNarrow(m.matches);
    m.addEventListener("change", on);
    return () => m.removeEventListener("change", on);
  }, []);
  return narrow;
}

/** A compact table fits a phone's width: no minimum width, cells top-aligned and tight. */
export const COMPACT_TABLE = { minWidth: 0, width: "100%", borderCollapse: "collapse" } as const;
export const COMPACT_CELL = {
  padding: "0.5rem 0.375rem",
  verticalAlign: "top",
  textAlign: "start",
  borderBottom: "1px solid var(--line, #e4ddd0)",
} as const;
/** A compact table's column names, in the style of every `.data-table`'s (islands.css). */
export const COMPACT_HEAD = {
  ...COMPACT_CELL,
  fontSize: "0.75rem",
  fontWeight: 600,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  color: "var(--muted, #5b6475)",
} as const;
