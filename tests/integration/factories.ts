// A test file's workspace in one call: a server (the worker's shared one, or the file's own), and the
// people in it by handle and role.
import { liftMessageRates, signUpPerson, startTestServer, type Dialect, type Person, type TestServer } from "./harness";
import { sharedServer } from "./shared-servers";

export type Role = "owner" | GrantedRole;
type GrantedRole = "admin" | "member" | "guest";

export interface WorkspaceSpec<H extends string> {
  /** Handles and roles in the order they sign up; the first is the owner, as the first sign-up is. */
  people: Record<H, Role>;
  /** One invite with this many uses for everyone after the owner, instead of an invite each. */
  invite?: { maxUses: number };
  /** Lifts the message rates (liftMessageRates) once the owner is in, before the others sign up. */
  liftRates?: boolean;
  /** Added to the server's environment (the file's own server). */
  env?: Record<string, string>;
  /** Counts the server's queries (the file's own server). */
  countQueries?: boolean;
  /**
   * A server of the file's own, for a file that stops or restarts it, or reads its output or its whole
   * database; else, without `env` or `countQueries`, the worker's shared server (shared-servers.ts).
   */
  ownServer?: boolean;
}

export interface Workspace<H extends string> {
  server: TestServer;
  people: Record<H, Person>;
  /** The shared invite's token, with `invite`. */
  inviteToken?: string;
}

/**
 * A workspace on a server, with `people` signed up into it: the owner (who creates it), then each other
 * person with an invite of their role (or the one shared invite). The caller disposes of `server`.
 */
export function startWorkspace<const H extends string>(
  dialect: Dialect,
  spec: WorkspaceSpec<H> & Required<Pick<WorkspaceSpec<H>, "invite">>,
): Promise<Workspace<H> & { inviteToken: string }>;
export function startWorkspace<const H extends string>(dialect: Dialect, spec: WorkspaceSpec<H>): Promise<Workspace<H>>;
export async function startWorkspace<const H extends string>(dialect: Dialect, spec: WorkspaceSpec<H>): Promise<Workspace<H>> {
  const [[ownerHandle, ownerRole], ...others] = Object.entries(spec.people) as [H, Role][];
  if (ownerRole !== "owner" || others.some(([, role]) => role === "owner")) throw new Error("the first person, and only the first, is the owner");
  if (spec.invite && others.some(([, role]) => role !== "member")) throw new Error("the shared invite is a member's");
  const own = spec.ownServer || spec.env !== undefined || spec.countQueries;
  const server = own ? await startTestServer(dialect, spec.env, { countQueries: spec.countQueries }) : await sharedServer(dialect);
  const owner = await signUpPerson(server, { handle: ownerHandle });
  if (spec.liftRates) await liftMessageRates(owner);
  const people = { [ownerHandle]: owner } as Record<H, Person>;
  const inviteToken = spec.invite && (await owner.api.workspace.createInvite.mutate({ maxUses: spec.invite.maxUses })).token;
  for (const [handle, role] of others as [H, GrantedRole][]) {
    const token = inviteToken ?? (await owner.api.workspace.createInvite.mutate({ role })).token;
    people[handle] = await signUpPerson(server, { handle, inviteToken: token });
  }
  return { server, people, inviteToken };
}
