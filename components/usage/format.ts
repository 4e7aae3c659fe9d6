// How money, tokens, shares and UTC days read on the usage dashboard. Usage is stored by UTC day
// (server/services/usage/usage.ts `dayOf`), so every range and bucket here is computed in UTC too.
import type { UsageBucket } from "@switchboard/sdk/usage";

export type Bucket = UsageBucket;
export type RangePreset = "7d" | "30d" | "90d" | "month" | "custom";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usdSmall = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });
const usdCompact = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat("en-US");

/** Dollars: cents as usual; sub-cent amounts (a single cheap call) keep up to 4 decimals. */
export function formatUsd(n: number): string {
  if (n !== 0 && Math.abs(n) < 0.01) return usdSmall.format(n);
  return usd.format(n);
}

/** Dollars on axes and in tight spots: $1.2K. */
export function formatUsdCompact(n: number): string {
  if (n !== 0 && Math.abs(n) < 0.01) return `$${Number(n.toPrecision(1))}`;
  if (Math.abs(n) < 1000) return usd.format(n).replace(/\.00$/, "");
  return usdCompact.format(n);
}

export const formatTokens = (n: number): string => compact.format(n);
export const formatInt = (n: number): string => integer.format(n);

/** A share (0..1) as a percentage: "<1%" rather than a misleading 0% for a small non-zero share. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return "0%";
  if (share < 0.01) return "<1%";
  if (share > 0.99 && share < 1) return ">99%";
  return `${Math.round(share * 100)}%`;
}

/** "Ada Lovelace (@ada)" from the overview's names, split for display. */
export function splitName(name: string): { name: string; handle: string | null } {
  const m = /^(.*) \(@([^)]+)\)$/.exec(name);
  return m ? { name: m[1], handle: m[2] } : { name, handle: null };
}

// ---- UTC days ----

export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The Monday of a day (the server's week key). */
export function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

export const isDay = (s: string | null | undefined): s is string => !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

export interface Range {
  from: string;
  to: string;
}

export function resolveRange(preset: RangePreset, custom: Partial<Range>, today = todayUtc()): Range {
  switch (preset) {
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "90d":
      return { from: addDays(today, -89), to: today };
    case "month":
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case "custom": {
      const from = isDay(custom.from) ? custom.from : addDays(today, -29);
      const to = isDay(custom.to) ? custom.to : today;
      return from <= to ? { from, to } : { from: to, to: from };
    }
    default:
      return { from: addDays(today, -29), to: today };
  }
}

/** The range of the same length right before this one (for "vs previous period"). */
export function previousRange(r: Range): Range {
  const len = daysBetween(r.from, r.to) + 1;
  return { from: addDays(r.from, -len), to: addDays(r.from, -1) };
}

/** Every bucket key of a range, so days without usage show as zero rather than vanish from the chart. */
export function bucketKeys(r: Range, bucket: Bucket, cap = 400): string[] {
  const keys: string[] = [];
  if (bucket === "month") {
    let [y, m] = r.from.slice(0, 7).split("-").map(Number);
    const end = r.to.slice(0, 7);
    for (;;) {
      const key = `${y}-${String(m).padStart(2, "0")}`;
      keys.push(key);
      if (key >= end || keys.length >= cap) break;
      m += 1;
      if (m > 12) {
        m = 1;
        y += 1;
      }
    }
    return keys;
  }
  const step = bucket === "week" ? 7 : 1;
  for (let d = bucket === "week" ? weekOf(r.from) : r.from; d <= r.to && keys.length < cap; d = addDays(d, step)) keys.push(d);
  return keys;
}

const fmt = (opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...opts });
const shortDay = fmt({ month: "short", day: "numeric" });
const longDay = fmt({ weekday: "short", month: "short", day: "numeric", year: "numeric" });
const monthYear = fmt({ month: "short", year: "numeric" });
const longMonth = fmt({ month: "long", year: "numeric" });

const asDate = (key: string) => new Date(key.length === 7 ? `${key}-01T00:00:00Z` : `${key}T00:00:00Z`);

/** Axis label of a bucket key. */
export function bucketTick(key: string, bucket: Bucket): string {
  return bucket === "month" ? monthYear.format(asDate(key)) : shortDay.format(asDate(key));
}

/** Tooltip label of a bucket key. */
export function bucketLabel(key: string, bucket: Bucket): string {
  if (bucket === "month") return longMonth.format(asDate(key));
  if (bucket === "week") return `Week of ${shortDay.format(asDate(key))}`;
  return longDay.format(asDate(key));
}

export function rangeLabel(r: Range): string {
  const sameYear = r.from.slice(0, 4) === r.to.slice(0, 4);
  const from = sameYear ? shortDay.format(asDate(r.from)) : longDay.format(asDate(r.from));
  return r.from === r.to ? longDay.format(asDate(r.to)) : `${from} – ${fmt({ month: "short", day: "numeric", year: "numeric" }).format(asDate(r.to))}`;
}

export const PRESET_LABELS: Record<RangePreset, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  month: "This month",
  custom: "Custom",
};
