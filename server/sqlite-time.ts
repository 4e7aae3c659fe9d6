// How the SQLite driver adapter stores a DateTime: ISO 8601 text in UTC with a `+00:00` offset. SQL
// written by hand (the hot path, tests, the bench's bulk loads) binds the same text, so Prisma's own
// comparisons (which are text comparisons on SQLite) and reads agree with it.
export function sqliteDateTime(at: Date): string {
  return at.toISOString().replace("Z", "+00:00");
}
