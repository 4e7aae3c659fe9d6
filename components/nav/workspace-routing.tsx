"use client";
// Next.js's Link, router and pathname for a workspace's pages: hrefs are written without the
// workspace (`/agents`, `/r/<room>`) and go to the page's own workspace (./workspace-paths.ts), and
// the pathname is read without it, so the app's components need not know the prefix exists.
import NextLink from "next/link";
import { usePathname as useNextPathname, useRouter as useNextRouter } from "next/navigation";
import { forwardRef, useMemo, type ComponentProps } from "react";
import { useWorkspaceId } from "@/components/providers/viewer-provider";
import { needsWorkspace, withoutWorkspace, workspacePath } from "./workspace-paths";

/** Puts the page's workspace on a path written without it; other hrefs are left as they are. */
export function useWorkspaceHref(): (href: string) => string {
  const workspaceId = useWorkspaceId();
  return useMemo(() => (href: string) => (workspaceId && needsWorkspace(href) ? workspacePath(workspaceId, href) : href), [workspaceId]);
}

export const Link = forwardRef<HTMLAnchorElement, ComponentProps<typeof NextLink>>(function Link({ href, ...props }, ref) {
  const toWorkspace = useWorkspaceHref();
  return <NextLink ref={ref} href={typeof href === "string" ? toWorkspace(href) : href} {...props} />;
});

export function useRouter(): ReturnType<typeof useNextRouter> {
  const router = useNextRouter();
  const toWorkspace = useWorkspaceHref();
  return useMemo(
    () => ({
      ...router,
      push: (href, options) => router.push(toWorkspace(href), options),
      replace: (href, options) => router.replace(toWorkspace(href), options),
      prefetch: (href, options) => router.prefetch(toWorkspace(href), options),
    }),
    [router, toWorkspace],
  );
}

/** The pathname without its workspace: `/agents` on /w/<id>/agents. */
export function usePathname(): string {
  return withoutWorkspace(useNextPathname());
}
