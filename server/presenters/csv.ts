// CSV for exports (usage breakdowns, the audit log): one cell function for every file.

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one) as a
 * formula: such text gets a leading apostrophe (OWASP's CSV injection advice). Numbers are left as
 * they are (-1 is a number, not a formula); objects are written as JSON. Every cell is quoted.
 */
export function csvCell(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint") return `"${String(value)}"`;
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A CSV file: the header (our own column names, as they are), then one line per row. */
export function csvFile(header: readonly string[], rows: unknown[][]): string {
  return [header.join(","), ...rows.map((row) => row.map(csvCell).join(","))].join("\n") + "\n";
}
