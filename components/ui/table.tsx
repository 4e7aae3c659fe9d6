// A bordered table for management lists: scrolls sideways on a narrow screen (with a cue), a quiet header row.
import type { ReactNode } from "react";
import { ScrollX } from "./scroll-x";

export interface Column {
  label: ReactNode;
  className?: string;
}

export function DataTable({
  columns,
  minWidth,
  testId,
  children,
}: {
  /** A header label, or `false` for a column left out. */
  columns: (string | Column | false)[];
  /** A Tailwind min-w-* class: below it the table scrolls instead of squeezing. */
  minWidth: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <ScrollX label="Table (scrolls sideways)" className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs">
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={testId}>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs text-zinc-500">
          <tr>
            {columns
              .filter((c) => c !== false)
              .map((c, i) => {
                const { label, className = "" } = typeof c === "string" ? { label: c } : c;
                return (
                  <th key={i} className={`px-4 py-2 font-medium ${className}`}>
                    {label}
                  </th>
                );
              })}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">{children}</tbody>
      </table>
    </ScrollX>
  );
}
