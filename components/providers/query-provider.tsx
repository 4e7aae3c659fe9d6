"use client";
// React Query + the tRPC client (same origin, superjson, batched) for every page.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import { z } from "zod";
import type { AppRouter } from "@/server/trpc/router";
import { appErrorOf } from "@/components/ui/errors";
import { TRPCProvider } from "./trpc";

// The CSP allows no eval: zod's probe for it would be reported as a violation on every page.
z.config({ jitless: true });

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Errors the server says are final (not found, forbidden, invalid) are not retried.
        retry: (count, error) => count < 2 && appErrorOf(error).retryable,
      },
    },
  });
}

/**
 * `workspaceId`: the workspace a page is in, said in every request (`x-switchboard-workspace`), since
 * a person may belong to several. The workspace's layout gives each workspace a provider of its own.
 */
export function QueryProvider({ workspaceId, children }: { workspaceId?: string; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: "/api/trpc",
          transformer: superjson,
          // A page that asks many queries at once (the Agents page: two per agent) would put them all in
          // one GET's URL, and past Node's 16 KiB of headers the server answers 431: split the batch.
          maxURLLength: 8000,
          headers: () => (workspaceId ? { "x-switchboard-workspace": workspaceId } : {}),
          fetch: (url, init) => fetch(url, { ...init, credentials: "same-origin" }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
