"use client";
// CSV export of any view of the dashboard: the server renders it (usage.exportCsv, the same query as
// the screen), the browser saves it as a file through a Blob.
import { useState } from "react";
import { useTRPCClient } from "@/components/providers/trpc";
import { errorMessage } from "@/components/ui/errors";
import { toast } from "@/components/ui/toast";
import type { CsvView } from "./types";
import type { UsageParams } from "./use-usage-params";

export function downloadText(text: string, filename: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const VIEW_FILE: Record<CsvView, string> = {
  series: "over-time",
  byAgent: "by-agent",
  byPerson: "by-owner",
  byRequester: "by-requester",
  byRoom: "by-room",
  byTask: "by-task",
  byModel: "by-model",
  detail: "all-dimensions",
};

export function useCsvExport(query: UsageParams["query"]) {
  const client = useTRPCClient();
  const [exporting, setExporting] = useState<CsvView | null>(null);
  const exportView = async (view: CsvView) => {
    setExporting(view);
    try {
      const csv = await client.usage.exportCsv.query({ ...query, view });
      downloadText(csv, `usage-${VIEW_FILE[view]}-${query.from}-to-${query.to}.csv`);
    } catch (error) {
      toast(errorMessage(error), "error");
    } finally {
      setExporting(null);
    }
  };
  return { exporting, exportView };
}
