// The workspace's component map: named globs ("server/services/** → Services") that say which part of
// the codebase a file an agent touched belongs to. Admins edit it; the first entry whose globs match a
// path wins; a path no entry matches belongs to its top folder ("app/page.tsx" → "app", a file at the
// top → "(root)"), which is also the whole map of a workspace that has none. Files are mapped when read,
// so an edited map re-files history too.
import picomatch from "picomatch";
import type { z } from "zod";
import type { ComponentMapPreview, ComponentPreview, ComponentRule, setComponentMapInput } from "@switchboard/sdk/work";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import type { ComponentOf } from "../../presenters/work";
import { recordAudit } from "../governance/audit";

export const ROOT_COMPONENT = "(root)";

export type { ComponentOf };

/** Maps paths to component names; made once per map read. */
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
  return path
    .replaceAll("\\", "/")
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "");
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

/** The workspace's component map, as every member may read it. */
export async function componentMap(actor: Actor): Promise<ComponentRule[]> {
  authorize(actor, "work.read_workspace", { workspaceId: actor.workspaceId });
  return storedMap(actor.workspaceId);
}

async function storedMap(workspaceId: string): Promise<ComponentRule[]> {
  const workspace = await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { componentMap: true } });
  return parseComponentMap(workspace?.componentMap);
}

export async function componentMatcherFor(workspaceId: string): Promise<ComponentOf> {
  return componentMatcher(await storedMap(workspaceId));
}

/** A map as admins may store it: names unique (ignoring case), every glob one picomatch can read. */
function checkedMap(input: z.output<typeof setComponentMapInput>): { name: string; patterns: string[] }[] {
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
  return input.components.map((r) => ({ name: r.name, patterns: r.patterns }));
}

/** Replaces the map (admins). */
export async function setComponentMap(actor: Actor, input: z.output<typeof setComponentMapInput>): Promise<{ components: ComponentRule[] }> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const components = checkedMap(input);
  await getDb().$transaction(async (tx) => {
    await tx.workspace.update({ where: { id: actor.workspaceId }, data: { componentMap: components } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "workspace.components_set",
      subjectType: "workspace",
      subjectId: actor.workspaceId,
      data: { components: components.length },
    });
  });
  return { components };
}

/** How many of the workspace's most recently touched paths a preview files. */
export const PREVIEW_PATHS = 500;

/**
 * What a draft map would make of the files agents actually touched (the most recent distinct paths),
 * before an admin saves it: each component with how many paths it gets and a few of them, the top
 * folders that catch what no entry matches, and entries that match nothing.
 */
export async function previewComponentMap(actor: Actor, input: z.output<typeof setComponentMapInput>): Promise<ComponentMapPreview> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const rules = checkedMap(input);
  const touched = await getDb().fileTouch.findMany({
    where: { workspaceId: actor.workspaceId, operation: { not: "run" } }, // a command is no file
    distinct: ["path"],
    orderBy: { at: "desc" },
    take: PREVIEW_PATHS,
    select: { path: true },
  });
  const componentOf = componentMatcher(rules);
  const named = new Set(rules.map((r) => r.name));
  const byName = new Map<string, ComponentPreview>(rules.map((r) => [r.name, { name: r.name, fallback: false, paths: 0, examples: [] }]));
  for (const { path } of touched) {
    const name = componentOf(path);
    const entry = byName.get(name) ?? { name, fallback: !named.has(name), paths: 0, examples: [] };
    entry.paths += 1;
    if (entry.examples.length < 3) entry.examples.push(normalizePath(path));
    byName.set(name, entry);
  }
  return { components: [...byName.values()], paths: touched.length };
}
