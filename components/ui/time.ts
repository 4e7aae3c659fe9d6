// Times on management pages: "3 min ago", "in 6 days", and a full local date for titles.

const DAY = 24 * 3600;

/** "just now", "5 minutes ago", "in 30 days", "3 months ago": days up to 45, then months, then years. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  if (abs < 3600) return fmt.format(Math.round(seconds / 60), "minute");
  if (abs < DAY) return fmt.format(Math.round(seconds / 3600), "hour");
  if (abs < 45 * DAY) return fmt.format(Math.round(seconds / DAY), "day");
  if (abs < 365 * DAY) return fmt.format(Math.round(seconds / (30 * DAY)), "month");
  return fmt.format(Math.round(seconds / (365 * DAY)), "year");
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" });
}

export function shortDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleDateString(undefined, { month: "short", day: "numeric", year: "numeric" });
}
