// The phone's compact table (see lib/narrow.ts): a scrollable, labelled region holding one
// short row per entry under a few column names; the first column reads left, the others right.
import type { ReactNode } from "react";
import { COMPACT_HEAD, COMPACT_TABLE } from "../lib/narrow";

export type CompactColumn = { name: string; numeric?: boolean };

export function CompactTable({ label, columns, children }: { label: string; columns: CompactColumn[]; children: ReactNode }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="admin-table" style={COMPACT_TABLE}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={c.name} scope="col" className={c.numeric ? "num" : undefined} style={i === 0 ? COMPACT_HEAD : { ...COMPACT_HEAD, textAlign: "right" }}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
