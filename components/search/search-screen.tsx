"use client";
// /search: messages the viewer may read that match what they type (words, "phrases", -words and the
// operators in docs/protocol.md's Search), best first or newest, a page at a time. The query and the
// order are in the URL (a search is a link); each hit shows where its words matched, in its room and
// thread, and opens there with the message highlighted.
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import type { SearchHit } from "@switchboard/sdk/contract";
import { PageFrame } from "@/components/nav/page-frame";
import { useTRPC } from "@/components/providers/trpc";
import { Avatar } from "@/components/ui/avatar";
import { Button, Spinner } from "@/components/ui/button";
import { appErrorOf } from "@/components/ui/errors";
import { SearchField } from "@/components/ui/field";
import { SearchIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/states";
import { dateTime, relativeTime } from "@/components/ui/time";
import { useDebounced } from "@/components/ui/use-debounced";
import { excerpt } from "./excerpt";
import { messageHref } from "@/components/rooms/message-href";
import { Link, usePathname, useRouter } from "@/components/nav/workspace-routing";

type Sort = "relevance" | "date";

/** What people can type, with an example each: a click adds it to the query. */
const OPERATORS = [
  { insert: "in:#", label: "in:#room", hint: "in a channel" },
  { insert: "from:@", label: "from:@someone", hint: "written by them" },
  { insert: "from:me", label: "from:me", hint: "written by you" },
  { insert: "mentions:me", label: "mentions:me", hint: "mentioning you" },
  { insert: "is:thread", label: "is:thread", hint: "replies in threads" },
  { insert: "has:link", label: "has:link", hint: "with a link" },
  { insert: "after:", label: "after:2026-12-01", hint: "after a day" },
  { insert: "before:", label: "before:2026-12-01", hint: "before a day" },
  { insert: '""', label: '"exact phrase"', hint: "words in that order" },
  { insert: "-", label: "-word", hint: "without it" },
] as const;

export function SearchScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [text, setText] = useState(params.get("q") ?? "");
  const sort: Sort = params.get("sort") === "date" ? "date" : "relevance";
  const query = useDebounced(text.trim(), 300);

  // The URL follows what is searched (replace: typing is not history).
  useEffect(() => {
    const next = new URLSearchParams();
    if (query) next.set("q", query);
    if (sort === "date") next.set("sort", "date");
    const url = `${pathname}${next.size ? `?${next}` : ""}`;
    if (url !== `${pathname}${params.size ? `?${params}` : ""}`) router.replace(url, { scroll: false });
  }, [query, sort, pathname, params, router]);

  const results = useInfiniteQuery({
    ...trpc.search.messages.infiniteQueryOptions({ query, sort, limit: 20 }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    retry: (count, error) => appErrorOf(error).code !== "INVALID_PAYLOAD" && count < 2,
  });
  const hits = results.data?.pages.flatMap((p) => p.hits) ?? [];
  const setSort = (next: Sort) => {
    const url = new URLSearchParams(params);
    if (next === "date") url.set("sort", "date");
    else url.delete("sort");
    router.replace(`${pathname}?${url}`, { scroll: false });
  };
  const add = (insert: string) => setText((t) => `${t.trim()} ${insert}`.trimStart());

  return (
    <PageFrame title="Search" icon={<SearchIcon size={18} />} subtitle="Messages in the rooms you can read" testId="search-page" wide>
      <form role="search" aria-label="Search messages" className="mb-4 grid gap-3 md:grid-cols-[1fr_auto]" onSubmit={(e) => e.preventDefault()}>
        <SearchField
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder='Search messages: words, "a phrase", in:#room, from:@someone'
          aria-label="Search messages"
          data-testid="search-input"
          autoFocus
          enterKeyHint="search"
        />
        <div className="flex rounded-md bg-zinc-100 p-0.5 ring-1 ring-zinc-200 ring-inset" role="group" aria-label="Order">
          {(
            [
              ["relevance", "Best match"],
              ["date", "Newest"],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={sort === value}
              onClick={() => setSort(value)}
              data-testid={`search-sort-${value}`}
              className={`h-9 flex-1 rounded px-3 text-sm font-medium md:flex-none ${sort === value ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-600 hover:text-zinc-900"}`}
            >
              {label}
            </button>
          ))}
        </div>
      </form>
      <div className="mb-5 flex flex-wrap gap-1.5" aria-label="Narrow the search">
        {OPERATORS.map((op) => (
          <button
            key={op.label}
            type="button"
            onClick={() => add(op.insert)}
            title={op.hint}
            className="rounded-full bg-zinc-100 px-2.5 py-1 font-mono text-xs text-zinc-700 ring-1 ring-zinc-200 hover:bg-zinc-200 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
          >
            {op.label}
          </button>
        ))}
      </div>

      {!query ? (
        <EmptyState
          icon={<SearchIcon size={20} />}
          title="Search every conversation you can read"
          body="Words find their forms too (deploy finds deploying). Add operators to narrow it: where, who, when."
          testId="search-start"
        />
      ) : results.isPending ? (
        <SkeletonRows rows={4} testId="search-loading" />
      ) : results.isError ? (
        <ErrorState
          error={results.error}
          title={appErrorOf(results.error).code === "INVALID_PAYLOAD" ? "That search needs a fix" : "Couldn't search"}
          onRetry={appErrorOf(results.error).code === "INVALID_PAYLOAD" ? undefined : () => void results.refetch()}
          testId="search-error"
        />
      ) : hits.length === 0 ? (
        <EmptyState
          icon={<SearchIcon size={20} />}
          title="No messages match"
          body="Try fewer words, another form of a word, or leave out an operator."
          testId="search-empty"
        />
      ) : (
        <>
          <p className="mb-2 text-sm text-zinc-500" aria-live="polite" data-testid="search-count">
            {results.isFetching && !results.isFetchingNextPage && <Spinner className="mr-1.5 inline h-3.5 w-3.5" />}
            {hits.length}
            {results.hasNextPage ? "+" : ""} {hits.length === 1 ? "message" : "messages"}
          </p>
          <ol className="divide-y divide-zinc-100 rounded-xl border border-zinc-200 bg-white" data-testid="search-results">
            {hits.map((hit) => (
              <Hit key={hit.message.id} hit={hit} />
            ))}
          </ol>
          {results.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => void results.fetchNextPage()}
                disabled={results.isFetchingNextPage}
                data-testid="search-more"
              >
                {results.isFetchingNextPage && <Spinner className="h-3.5 w-3.5" />} More results
              </Button>
            </div>
          )}
        </>
      )}
    </PageFrame>
  );
}

function Hit({ hit }: { hit: SearchHit }) {
  const { message, room } = hit;
  const where = room.kind === "channel" && room.name ? `#${room.name}` : room.title;
  const parts = excerpt(message.body, hit.highlights);
  return (
    <li>
      <Link
        href={messageHref(message)}
        className="flex gap-3 px-4 py-3 hover:bg-zinc-50 focus-visible:bg-indigo-50 focus-visible:outline-none"
        data-testid="search-hit"
        data-message-id={message.id}
      >
        <Avatar id={message.author.id} name={message.author.displayName} kind={message.author.kind} size={32} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
            <span className="font-semibold text-zinc-900">{message.author.displayName}</span>
            <span className="text-zinc-500">
              in <span className="font-medium text-zinc-700">{where}</span>
              {message.threadRootId && <span data-testid="search-hit-thread"> · in a thread</span>}
            </span>
            <time className="text-xs text-zinc-500" dateTime={message.createdAt} title={dateTime(message.createdAt)}>
              {relativeTime(message.createdAt)}
            </time>
          </div>
          <p className="mt-0.5 text-sm break-words whitespace-pre-line text-zinc-700" dir="auto" data-testid="search-hit-text">
            {parts.map((p, i) =>
              p.match ? (
                <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-zinc-900">
                  {p.text}
                </mark>
              ) : (
                <span key={i}>{p.text}</span>
              ),
            )}
          </p>
        </div>
      </Link>
    </li>
  );
}
