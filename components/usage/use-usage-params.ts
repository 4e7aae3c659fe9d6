"use client";
// The dashboard's view (range, bucket, filters) lives in the URL, so a manager can share or bookmark
// exactly what they are looking at, and the back button undoes a filter.
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { USAGE_BUCKETS, type UsageQuery } from "@switchboard/sdk/usage";
import { isDay, resolveRange, type Bucket, type Range, type RangePreset } from "./format";
import { usePathname, useRouter } from "@/components/nav/workspace-routing";

// `person` filters by the agents' owner ("owned by"), `requester` by who drove the calls ("requested by").
export const FILTER_KEYS = ["agent", "person", "requester", "room", "task", "model"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filters = Partial<Record<FilterKey, string>>;

const PRESETS: RangePreset[] = ["7d", "30d", "90d", "month", "custom"];

export interface UsageParams {
  preset: RangePreset;
  range: Range;
  bucket: Bucket;
  filters: Filters;
  /** The input of usage.overview / usage.exportCsv for this view. */
  query: UsageQuery;
}

export function useUsageParams() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const params = useMemo<UsageParams>(() => {
    const rawPreset = search.get("range") as RangePreset | null;
    const preset: RangePreset = rawPreset && PRESETS.includes(rawPreset) ? rawPreset : "30d";
    const custom = { from: search.get("from") ?? undefined, to: search.get("to") ?? undefined };
    const range = resolveRange(preset, { from: isDay(custom.from) ? custom.from : undefined, to: isDay(custom.to) ? custom.to : undefined });
    const rawBucket = search.get("bucket") as Bucket | null;
    const bucket: Bucket = rawBucket && (USAGE_BUCKETS as readonly string[]).includes(rawBucket) ? rawBucket : "day";
    const filters: Filters = {};
    for (const key of FILTER_KEYS) {
      const v = search.get(key);
      if (v) filters[key] = v.slice(0, 128);
    }
    return {
      preset,
      range,
      bucket,
      filters,
      query: {
        ...range,
        bucket,
        ...(filters.agent ? { agentId: filters.agent } : {}),
        ...(filters.person ? { ownerId: filters.person } : {}),
        ...(filters.requester ? { requesterId: filters.requester } : {}),
        ...(filters.room ? { roomId: filters.room } : {}),
        ...(filters.task ? { taskId: filters.task } : {}),
        ...(filters.model ? { model: filters.model } : {}),
      },
    };
  }, [search]);

  const update = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(search.toString());
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === "") next.delete(k);
        else next.set(k, v);
      }
      const qs = next.toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [search, router, pathname],
  );

  const setPreset = useCallback(
    (preset: RangePreset) => {
      if (preset === "custom") update({ range: "custom", from: params.range.from, to: params.range.to });
      else update({ range: preset === "30d" ? null : preset, from: null, to: null });
    },
    [update, params.range],
  );
  const setCustom = useCallback(
    (r: Partial<Range>) => update({ range: "custom", ...(r.from ? { from: r.from } : {}), ...(r.to ? { to: r.to } : {}) }),
    [update],
  );
  const setBucket = useCallback((b: Bucket) => update({ bucket: b === "day" ? null : b }), [update]);
  const setFilter = useCallback((key: FilterKey, value: string | null) => update({ [key]: value }), [update]);
  const clearFilters = useCallback((keys: readonly FilterKey[]) => update(Object.fromEntries(keys.map((k) => [k, null]))), [update]);

  return { ...params, setPreset, setCustom, setBucket, setFilter, clearFilters };
}
