"use client";
// The handles a message mentions, for its body's highlights: a message's `mentions` are participant ids
// (those the server resolved), named here from the workspace's directory, the cached query the page's
// names come from.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { handlesIn } from "./markdown";

const NONE: readonly string[] = [];

export function useMentionHandles(ids: readonly string[]): readonly string[] {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.workspace.participants.queryOptions(), staleTime: 60_000, enabled: ids.length > 0 });
  const key = ids.join(" ");
  return useMemo(() => {
    if (!key || !data) return NONE;
    const wanted = new Set(key.split(" "));
    return data.filter((p) => wanted.has(p.id)).map((p) => p.handle);
  }, [key, data]);
}

/** For a text with no resolved mentions (a question's prompt): the @handles in it that someone in the workspace has. */
export function useNamedHandles(body: string): readonly string[] {
  const trpc = useTRPC();
  const named = useMemo(() => (body.includes("@") ? handlesIn(body) : []), [body]);
  const { data } = useQuery({ ...trpc.workspace.participants.queryOptions(), staleTime: 60_000, enabled: named.length > 0 });
  return useMemo(() => {
    if (!named.length || !data) return NONE;
    const known = new Set(data.map((p) => p.handle));
    return named.filter((h) => known.has(h));
  }, [named, data]);
}
