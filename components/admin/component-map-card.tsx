"use client";
// The component map: named globs that file the paths agents touch under the parts of the codebase the
// Work page shows ("server/services/** → Services"). The first entry that matches wins, so order
// matters and rows move up and down. While an admin edits, the draft is previewed against the files
// agents actually touched (work.previewComponents), so a glob that catches nothing shows before saving.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button, Spinner } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/errors";
import { FormError, TextArea, TextInput } from "@/components/ui/field";
import { ArrowDownIcon, PlusIcon, TrashIcon } from "@/components/ui/icons";
import { ErrorState, SkeletonRows } from "@/components/ui/states";
import { toast } from "@/components/ui/toast";
import { useDebounced } from "@/components/ui/use-debounced";
import { Card } from "./card";
import { COMPONENT_NAME_MAX, type ComponentMapPreview, type ComponentRule as Rule } from "@switchboard/sdk/work";

interface Row {
  key: number;
  name: string;
  /** One glob per line, as typed. */
  patterns: string;
}

let nextKey = 0;
const toRow = (rule: Rule): Row => ({ key: nextKey++, name: rule.name, patterns: rule.patterns.join("\n") });
const globsOf = (row: Row) =>
  row.patterns
    .split("\n")
    .map((g) => g.trim())
    .filter(Boolean);
const toRules = (rows: Row[]): Rule[] => rows.map((r) => ({ name: r.name.trim(), patterns: globsOf(r) }));

/** Why the draft cannot be saved yet, if it cannot. */
function problemOf(rules: Rule[]): string | null {
  const seen = new Set<string>();
  for (const [i, rule] of rules.entries()) {
    if (!rule.name) return `Component ${i + 1} needs a name.`;
    if (rule.patterns.length === 0) return `"${rule.name}" needs at least one glob.`;
    if (seen.has(rule.name.toLowerCase())) return `Two components are named "${rule.name}".`;
    seen.add(rule.name.toLowerCase());
  }
  return null;
}

export function ComponentMapCard() {
  const trpc = useTRPC();
  const saved = useQuery(trpc.work.components.queryOptions());
  if (saved.isPending) return <SkeletonRows rows={2} />;
  if (saved.isError) return <ErrorState error={saved.error} onRetry={() => void saved.refetch()} title="Couldn't load the component map" />;
  return <ComponentMapForm key={JSON.stringify(saved.data.components)} saved={saved.data.components} />;
}

function ComponentMapForm({ saved }: { saved: Rule[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>(() => saved.map(toRow));
  const rules = toRules(rows);
  const problem = problemOf(rules);
  const dirty = JSON.stringify(rules) !== JSON.stringify(saved);
  const draft = useDebounced(rules, 300);
  const preview = useQuery({
    ...trpc.work.previewComponents.queryOptions({ components: draft }),
    enabled: problemOf(draft) === null,
    placeholderData: keepPreviousData,
  });
  const save = useMutation(
    trpc.work.setComponents.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.work.components.queryKey(), data);
        void queryClient.invalidateQueries(trpc.work.board.pathFilter()); // the Work page files history anew
        toast("Component map saved");
      },
    }),
  );

  const update = (key: number, change: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const move = (index: number, by: -1 | 1) =>
    setRows((all) => {
      const next = [...all];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });
  const suggestFromFolders = () => {
    const folders = (preview.data?.components ?? []).filter((c) => c.fallback && c.name !== "(root)");
    setRows((all) => [...all, ...folders.map((c) => toRow({ name: c.name, patterns: [`${c.name}/**`] }))]);
  };

  return (
    <Card
      title="Components"
      description="Name the parts of your codebase the Work page groups agents' files by. The first component whose globs match a path gets it; a path no glob matches falls under its top folder."
      testId="settings-components"
      onSubmit={(e) => {
        e.preventDefault();
        if (problem || !dirty || save.isPending) return;
        save.mutate({ components: rules });
      }}
      footer={
        <>
          {problem && dirty && <span className="mr-auto text-xs text-rose-600">{problem}</span>}
          <Button
            type="button"
            size="sm"
            variant="ghost"
            disabled={!dirty || save.isPending}
            onClick={() => setRows(saved.map(toRow))}
            data-testid="components-reset"
          >
            Discard
          </Button>
          <Button type="submit" size="sm" disabled={!!problem || !dirty || save.isPending} data-testid="save-components">
            {save.isPending && <Spinner />} Save map
          </Button>
        </>
      }
    >
      <FormError message={save.error ? errorMessage(save.error) : null} />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-5">
        <div className="space-y-2.5 lg:col-span-3">
          {rows.length === 0 && (
            <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-5 text-center text-sm text-zinc-500" data-testid="components-empty">
              No components yet: files are grouped by their top folder (<code className="font-mono text-xs">server</code>,{" "}
              <code className="font-mono text-xs">app</code>, …).
            </p>
          )}
          <ol className="space-y-2.5">
            {rows.map((row, i) => (
              <li key={row.key} className="flex gap-2.5 rounded-lg border border-zinc-200 bg-zinc-50/50 p-3" data-testid="component-rule">
                <div className="flex flex-col gap-1 pt-1">
                  <button
                    type="button"
                    onClick={() => move(i, -1)}
                    disabled={i === 0}
                    aria-label={`Move ${row.name || "component"} up`}
                    className="rounded p-0.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-700 disabled:opacity-30"
                  >
                    <ArrowDownIcon size={14} className="rotate-180" />
                  </button>
                  <button
                    type="button"
                    onClick={() => move(i, 1)}
                    disabled={i === rows.length - 1}
                    aria-label={`Move ${row.name || "component"} down`}
                    className="rounded p-0.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-700 disabled:opacity-30"
                  >
                    <ArrowDownIcon size={14} />
                  </button>
                </div>
                <div className="min-w-0 flex-1 space-y-2">
                  <TextInput
                    value={row.name}
                    onChange={(e) => update(row.key, { name: e.target.value })}
                    placeholder="Name, e.g. Services"
                    maxLength={COMPONENT_NAME_MAX}
                    aria-label="Component name"
                    data-testid="component-name"
                  />
                  <TextArea
                    value={row.patterns}
                    onChange={(e) => update(row.key, { patterns: e.target.value })}
                    placeholder={"One glob per line, e.g.\nserver/services/**"}
                    rows={Math.min(6, Math.max(2, row.patterns.split("\n").length))}
                    className="font-mono text-xs"
                    aria-label={`Globs of ${row.name || "this component"}`}
                    data-testid="component-patterns"
                  />
                </div>
                <button
                  type="button"
                  onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                  aria-label={`Remove ${row.name || "component"}`}
                  className="self-start rounded p-1 text-zinc-500 hover:bg-rose-50 hover:text-rose-600"
                  data-testid="component-remove"
                >
                  <TrashIcon size={15} />
                </button>
              </li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="secondary" onClick={() => setRows((all) => [...all, toRow({ name: "", patterns: [] })])} data-testid="component-add">
              <PlusIcon size={14} /> Add component
            </Button>
            {preview.data?.components.some((c) => c.fallback && c.name !== "(root)") && (
              <Button size="sm" variant="ghost" onClick={suggestFromFolders} data-testid="components-suggest">
                Add one per top folder
              </Button>
            )}
          </div>
        </div>
        <Preview preview={preview.data} loading={preview.isFetching} stale={problemOf(draft) !== null} />
      </div>
    </Card>
  );
}

type PreviewData = ComponentMapPreview;

/** The draft against recently touched files: each component's share, with a few of its paths. */
function Preview({ preview, loading, stale }: { preview: PreviewData | undefined; loading: boolean; stale: boolean }) {
  const most = Math.max(1, ...(preview?.components.map((c) => c.paths) ?? []));
  return (
    <section className="rounded-lg border border-zinc-200 p-3 lg:col-span-2" aria-label="Preview" data-testid="components-preview">
      <h3 className="mb-2 flex items-center gap-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
        Preview {loading && <Spinner className="h-3 w-3" />}
      </h3>
      {!preview ? (
        <SkeletonRows rows={3} />
      ) : preview.paths === 0 ? (
        <p className="text-sm text-zinc-500">No agent has reported a file yet. Once they do, this shows where each file would go.</p>
      ) : (
        <>
          <p className="mb-2.5 text-xs text-zinc-500">
            The {preview.paths} most recently touched {preview.paths === 1 ? "file" : "files"}
            {stale ? " (under the last valid draft)" : ""}:
          </p>
          <ul className="space-y-2">
            {preview.components.map((c) => (
              <li key={c.name} data-testid="preview-component" data-name={c.name}>
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span className={`truncate font-medium ${c.paths === 0 ? "text-zinc-500" : "text-zinc-800"}`}>
                    {c.name}
                    {c.fallback && <span className="ml-1.5 text-xs font-normal text-zinc-500">top folder</span>}
                  </span>
                  <span className={`shrink-0 text-xs tabular-nums ${c.paths === 0 ? "text-amber-700" : "text-zinc-500"}`}>
                    {c.paths === 0 ? "matches no recent file" : `${c.paths} ${c.paths === 1 ? "file" : "files"}`}
                  </span>
                </div>
                <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-zinc-100">
                  <div className={`h-full rounded-full ${c.fallback ? "bg-zinc-300" : "bg-indigo-500"}`} style={{ width: `${(c.paths / most) * 100}%` }} />
                </div>
                {c.examples.length > 0 && <p className="mt-1 truncate font-mono text-[11px] text-zinc-500">{c.examples.join(" · ")}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
