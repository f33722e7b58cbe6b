// The one table of the admin views: a scrollable, labelled region around a `.data-table`
// whose columns are declared (header, cell, class), with its loading and empty states.
//
//   <Table label="Sessions" rows={sessions} rowKey={(b) => b.id} columns={[
//     { header: "Date", cell: (b) => longDateTime(b.sessionDate) },
//     { header: "Actions", hiddenHeader: true, cell: (b) => <RowActions>…</RowActions> },
//   ]} empty={<p className="empty__title">No sessions found matching the current filters</p>} />
//
// On a phone (islands.css, under 48em) a `.data-table` becomes a list of cards: every cell
// carries its column's name in `data-label` (the header's visible text unless the column says
// otherwise; none for a column named only for screen readers, whose cells take the whole card).
// A table can instead give the phone columns of its own (`phone`), as cards or, `compact`, as
// one short row per entry (lib/narrow).
import type { CSSProperties, ReactNode } from "react";
import { COMPACT_CELL, COMPACT_HEAD, COMPACT_TABLE, useNarrow } from "../lib/narrow";

export interface Column<R> {
  header: string;
  /** The header is read only by screen readers ("Actions"). */
  hiddenHeader?: boolean;
  /** A small line under the header ("available / total"). */
  note?: string;
  /** The phone card's name for the cells; the header's visible text by default. */
  label?: string;
  /** Figures: right-aligned header and cells (class `num`). */
  numeric?: boolean;
  /** The cells' own class ("nowrap", "admin-table__actions"), or one per row. */
  className?: string | ((row: R) => string | undefined);
  /** The cell is the row's header (`th scope="row"`). */
  rowHeader?: boolean;
  cell: (row: R) => ReactNode;
}

export interface TableProps<R> {
  /** The region's name (aria-label), or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  /** A caption for screen readers. */
  caption?: ReactNode;
  /** More classes of the table ("admin-lots"). */
  className?: string;
  columns: Column<R>[];
  /** The columns on a phone: cards of their own, or a compact table. */
  phone?: { columns: Column<R>[]; compact?: boolean };
  /** null while loading. */
  rows: readonly R[] | null;
  rowKey: (row: R) => string;
  rowClassName?: (row: R) => string | undefined;
  /** Shown instead of the table while `rows` is null… */
  loading?: ReactNode;
  /** …or as a line of the table. */
  loadingRow?: string;
  /** A newer list is on its way (aria-busy on the region). */
  busy?: boolean;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
}

/** The name a column's cells carry on a phone's card. */
export function cardLabel(c: Pick<Column<unknown>, "header" | "hiddenHeader" | "note" | "label">): string {
  if (c.label !== undefined) return c.label;
  if (c.hiddenHeader) return "";
  return c.note ? `${c.header} ${c.note}` : c.header;
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ") || undefined;
const RIGHT: CSSProperties = { ...COMPACT_CELL, textAlign: "end" };
const RIGHT_HEAD: CSSProperties = { ...COMPACT_HEAD, textAlign: "end" };

export function Table<R>(props: TableProps<R>) {
  const narrow = useNarrow();
  const { rows } = props;
  if (rows === null && props.loadingRow === undefined) return <>{props.loading ?? null}</>;
  if (rows !== null && rows.length === 0) return <>{props.empty}</>;
  const compact = narrow && !!props.phone?.compact;
  const columns = narrow && props.phone ? props.phone.columns : props.columns;

  const cell = (c: Column<R>, i: number, row: R) => {
    const className = classes(c.numeric && "num", typeof c.className === "function" ? c.className(row) : c.className);
    if (compact) {
      return (
        <td key={i} className={className} style={i === 0 ? COMPACT_CELL : RIGHT}>
          {c.cell(row)}
        </td>
      );
    }
    return c.rowHeader ? (
      <th key={i} scope="row" className={className} data-label={cardLabel(c)}>
        {c.cell(row)}
      </th>
    ) : (
      <td key={i} className={className} data-label={cardLabel(c)}>
        {c.cell(row)}
      </td>
    );
  };

  return (
    <div className="table-wrap" aria-busy={props.busy} tabIndex={0} role="region" aria-label={props.label} aria-labelledby={props.labelledBy}>
      <table className={compact ? "admin-table" : classes("data-table admin-table", props.className)} style={compact ? COMPACT_TABLE : undefined}>
        {props.caption ? <caption className="visually-hidden">{props.caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c, i) =>
              compact ? (
                <th key={i} scope="col" className={classes(c.numeric && "num")} style={i === 0 ? COMPACT_HEAD : RIGHT_HEAD}>
                  {c.header}
                </th>
              ) : (
                <th key={i} scope="col" className={classes(c.numeric && "num")}>
                  {c.hiddenHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
                  {c.note ? (
                    <>
                      {" "}
                      <span className="admin-th-note">{c.note}</span>
                    </>
                  ) : null}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((row) => (
            <tr key={props.rowKey(row)} className={props.rowClassName?.(row)}>
              {columns.map((c, i) => cell(c, i, row))}
            </tr>
          ))}
          {rows === null ? (
            <tr>
              <td colSpan={columns.length} className="admin-table__loading" data-label="">
                {props.loadingRow}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
