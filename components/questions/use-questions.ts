"use client";
// The browser's questions data. A card asks the server what the viewer may do (`questions.ofMessage`,
// cached per message); the Needs-you queue and its badge are `questions.list` / `questions.openCount`.
// One listener (mounted with the sidebar) keeps them all live: `question:updated` reaches the asker and
// the people it is for, `message:updated` of a question message reaches the room.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { QuestionForViewer, QuestionView } from "@switchboard/sdk/questions";
import { useSocket, useSocketEvent } from "@/components/providers/socket-provider";
import { useTRPC } from "@/components/providers/trpc";

/** Refetches the queue, the badge and the one question whose state moved. */
export function useQuestionEvents() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { readyEpoch } = useSocket();
  const refresh = (messageId?: string) => {
    void queryClient.invalidateQueries(trpc.questions.list.pathFilter());
    void queryClient.invalidateQueries(trpc.questions.openCount.pathFilter());
    if (messageId) void queryClient.invalidateQueries({ queryKey: trpc.questions.ofMessage.queryKey({ messageId }) });
  };
  useSocketEvent("question:updated", ({ question }) => refresh(question.messageId));
  useSocketEvent("message:updated", ({ message }) => {
    if (message.kind === "question") refresh(message.id);
  });
  // Whatever was decided while the socket was away.
  useEffect(() => {
    if (readyEpoch === 0) return;
    void queryClient.invalidateQueries(trpc.questions.pathFilter());
  }, [readyEpoch, queryClient, trpc]);
}

export function useOpenQuestionCount(): number {
  const trpc = useTRPC();
  const count = useQuery({ ...trpc.questions.openCount.queryOptions(), staleTime: 15_000 });
  return count.data ?? 0;
}

/** The question a message carries, as this viewer sees it (with `can`); `initial` when a list already has it. */
export function useQuestionOfMessage(messageId: string, initial?: QuestionForViewer) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.questions.ofMessage.queryOptions({ messageId }), staleTime: 60_000, initialData: initial });
}

/**
 * The freshest state of a question from two sources: the message (updated in place by the server)
 * and the viewer's query. A decision is final, so whichever has one wins.
 */
export function freshest<T extends QuestionView>(fromQuery: T | undefined, fromMessage: QuestionView | undefined): QuestionView | T | undefined {
  if (fromQuery && fromQuery.status !== "open") return fromQuery;
  if (fromMessage && fromMessage.status !== "open") return fromMessage;
  return fromQuery ?? fromMessage;
}

/** Answer and cancel, writing the server's reply into every cache that shows the question. */
export function useQuestionMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settle = (q: QuestionForViewer) => {
    queryClient.setQueryData(trpc.questions.ofMessage.queryKey({ messageId: q.messageId }), q);
    void queryClient.invalidateQueries(trpc.questions.list.pathFilter());
    void queryClient.invalidateQueries(trpc.questions.openCount.pathFilter());
  };
  const answer = useMutation(trpc.questions.answer.mutationOptions({ onSuccess: settle }));
  const cancel = useMutation(trpc.questions.cancel.mutationOptions({ onSuccess: settle }));
  /** After CONFLICT or EXPIRED: what happened instead. */
  const reload = (q: Pick<QuestionView, "messageId">) => {
    void queryClient.invalidateQueries({ queryKey: trpc.questions.ofMessage.queryKey({ messageId: q.messageId }) });
    void queryClient.invalidateQueries(trpc.questions.list.pathFilter());
    void queryClient.invalidateQueries(trpc.questions.openCount.pathFilter());
  };
  return { answer, cancel, reload };
}

/** The current time, ticking every second while a deadline is within the hour (every 30 s otherwise). */
export function useNow(until: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    const tick = () => setNow(Date.now());
    const near = new Date(until).getTime() - Date.now() < 3600_000;
    const t = setTimeout(tick, near ? 1000 : 30_000);
    return () => clearTimeout(t);
  }, [until, now]);
  return now;
}
