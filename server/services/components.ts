// The workspace's component map: named globs ("server/services/** → Services") that say which part of
// the codebase a file an agent touched belongs to. Admins edit it; the first entry whose globs match a
// path wins; a path no entry matches belongs to its top folder ("app/page.tsx" → "app", a file at the
// top → "(root)"), which is also the whole map of a workspace that has none. Files are mapped when read,
// so an edited map re-files history too.
import picomatch from "picomatch";
import type { z } from "zod";
import type { ComponentRule, setComponentMapInput } from "../../sdk/work";
import { getDb } from "../db";
import { AppError } from "../errors";
import { authorize, type Actor } from "../policies";
import { recordAudit } from "./audit";

export const ROOT_COMPONENT = "(root)";

/** Maps paths to component names; made once per map read. */
export type ComponentOf = (path: string) => string;

export function componentMatcher(rules: ComponentRule[]): ComponentOf {
  const compiled = rules.map((rule) => ({ name: rule.name, matches: picomatch(rule.patterns, { dot: true }) }));
  return (path) => {
    const normalized = normalizePath(path);
    for (const rule of compiled) if (rule.matches(normalized)) return rule.name;
    return topFolder(normalized);
  };
}

/** Repository-relative, forward slashes, no leading "./" or "/". */
export function normalizePath(path: string): string {
  return path.replaceAll("\\", "/").replace(/^(\.\/)+/, "").replace(/^\/+/, "");
}

function topFolder(path: string): string {
  const slash = path.indexOf("/");
  return slash > 0 ? path.slice(0, slash) : ROOT_COMPONENT;
}

/** The map as stored (invalid JSON left by hand reads as none). */
export function parseComponentMap(stored: unknown): ComponentRule[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry: unknown) => {
    if (!entry || typeof entry !== "object") return [];
    const { name, patterns } = entry as { name?: unknown; patterns?: unknown };
    if (typeof name !== "string" || !Array.isArray(patterns)) return [];
    const globs = patterns.filter((p): p is string => typeof p === "string");
    return globs.length ? [{ name, patterns: globs }] : [];
  });
}

export async function componentMap(workspaceId: string): Promise<ComponentRule[]> {
  const workspace = await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { componentMap: true } });
  return parseComponentMap(workspace?.componentMap);
}

export async function componentMatcherFor(workspaceId: string): Promise<ComponentOf> {
  return componentMatcher(await componentMap(workspaceId));
}

/** Replaces the map (admins). Globs are checked here: one that picomatch cannot read is refused. */
export async function setComponentMap(actor: Actor, input: z.output<typeof setComponentMapInput>): Promise<{ components: ComponentRule[] }> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const names = new Set<string>();
  for (const rule of input.components) {
    if (names.has(rule.name.toLowerCase())) throw new AppError("INVALID_PAYLOAD", `Two components are named "${rule.name}"`);
    names.add(rule.name.toLowerCase());
    for (const pattern of rule.patterns) {
      try {
        picomatch.makeRe(pattern);
      } catch {
        throw new AppError("INVALID_PAYLOAD", `"${pattern}" (${rule.name}) is not a glob`);
      }
    }
  }
  const components = input.components.map((r) => ({ name: r.name, patterns: r.patterns }));
  await getDb().$transaction(async (tx) => {
    await tx.workspace.update({ where: { id: actor.workspaceId }, data: { componentMap: components } });
    await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action: "workspace.components_set", subjectType: "workspace", subjectId: actor.workspaceId, data: { components: components.length } });
  });
  return { components };
}
