// Tables become cards on a phone (islands.css, `.data-table` under 48em): each cell shows its
// column's name beside it. This copies the header texts into the cells' `data-label` for every
// `.data-table` an island renders, now or later, so a table added by any island gets the card
// layout by using the class alone.

/** A header's name as it shows: a column named only for screen readers (the "Actions" of a
 *  `.visually-hidden` span) has none, so its cells take the whole card and an empty one (a row
 *  with no action) is left out instead of showing a bare "Actions" label. */
export function visibleText(th: HTMLElement): string {
  const copy = th.cloneNode(true) as HTMLElement;
  copy.querySelectorAll(".visually-hidden").forEach((e) => e.remove());
  return (copy.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** Labels the body cells of `table` from its header row; answers whether anything changed. */
export function labelCells(table: HTMLTableElement): boolean {
  const headRow = table.tHead?.rows[0];
  if (!headRow) return false;
  const names: string[] = [];
  for (const th of Array.from(headRow.cells)) {
    const name = visibleText(th);
    for (let i = 0; i < th.colSpan; i++) names.push(name);
  }
  let changed = false;
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        // A cell spanning the row (a loading or empty line) needs no label.
        const name = cell.colSpan > 1 ? "" : (names[column] ?? "");
        column += cell.colSpan;
        if (cell.dataset.label !== name) {
          cell.dataset.label = name;
          changed = true;
        }
      }
    }
  }
  return changed;
}

/** Keeps every `.data-table` under `root` labelled while the island renders. */
export function watchTables(root: HTMLElement): void {
  let queued = false;
  const run = () => {
    queued = false;
    root.querySelectorAll<HTMLTableElement>("table.data-table").forEach(labelCells);
  };
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(run);
  }).observe(root, { childList: true, subtree: true, characterData: true });
}
