// Every read and write path into a room, for every kind of actor, over both transports, against one
// table of expected outcomes. A non-member never reads a private room by any path: not its history,
// not a search hit in it, not a file shared in it. An actor of another workspace on the same server (an
// admin there, and an agent there) gets for every room of this one what an id nobody has gets: nothing
// that tells it the room, the message or the file exists.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ack } from "@switchboard/sdk/contract";
import type { FileView } from "@switchboard/sdk/files";
import { closeSockets, createAgent, dialects, emitAck, errorCode, openAgentSocket, type ClientSocket, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

type Outcome = "OK" | string;
type Actor = {
  name: string;
  role: "owner" | "admin" | "member" | "guest" | "agent";
  person?: Person;
  socket?: ClientSocket;
  apiKey?: string;
  id: string;
  /** Of another workspace on the same server (its role is the one it has there). */
  foreign?: boolean;
};
type Room = { id: string; members: Set<string>; rootId: string; fileUrl: string; needle: string };
type Action = "history" | "sync" | "thread" | "members" | "send" | "read-cursor" | "search" | "file";
type Transport = "trpc" | "socket" | "http";

/** The rules, written out: what each actor gets for each action, by room visibility and membership. */
function expected(room: "public" | "private", member: boolean, role: Actor["role"], action: Action): Outcome {
  // Search and files answer as if what the actor may not read were not there: no hit, no file.
  if (action === "search" || action === "file") {
    const readable = expected(room, member, role, "history") === "OK";
    return readable ? "OK" : action === "search" ? "NO_HIT" : "FILE_NOT_FOUND";
  }
  if (member) return "OK";
  // A thread is named by its root message's id: in a room the actor may not see, no such message.
  if (room === "private") return action === "thread" ? "MESSAGE_NOT_FOUND" : "ROOM_NOT_FOUND";
  const reads: Action[] = ["history", "sync", "thread", "members"];
  if (reads.includes(action)) return role === "guest" ? "NOT_A_MEMBER" : "OK";
  return "NOT_A_MEMBER";
}

type LinkAction =
  "invites.list" | "invites.revoke" | "tokens.create" | "tokens.list-mine" | "tokens.list-workspace" | "tokens.revoke-own" | "tokens.revoke-others";

/** Invite links are the admins'; onboarding tokens their creators' (and the admins'). */
function expectedForLinks(role: Actor["role"], action: LinkAction): Outcome {
  const admin = role === "owner" || role === "admin";
  switch (action) {
    case "tokens.create":
      return role === "guest" ? "FORBIDDEN" : "OK";
    case "tokens.list-mine":
    case "tokens.revoke-own":
      return "OK";
    default:
      return admin ? "OK" : "FORBIDDEN";
  }
}

type WorkspaceAction = "channels.browse" | "invites.create-member" | "invites.create-guest" | "invites.create-admin";

/** Guests join channels by invitation only; only the owner makes admins, by role or by invite link. */
function expectedForWorkspace(role: Actor["role"], action: WorkspaceAction): Outcome {
  const admin = role === "owner" || role === "admin";
  switch (action) {
    case "channels.browse":
      return role === "guest" ? "FORBIDDEN" : "OK";
    case "invites.create-admin":
      return role === "owner" ? "OK" : "FORBIDDEN";
    default:
      return admin ? "OK" : "FORBIDDEN";
  }
}

describe.each(dialects)("policy matrix on %s", (dialect) => {
  let server: TestServer;
  const actors: Actor[] = [];
  const rooms: Record<"public" | "private", Room> = {} as never;
  /** A room, root and file nobody has: what a foreign actor's answers are compared with. */
  let phantom: Room;
  /** Another workspace's invite and onboarding token, for the foreign admin to try to revoke. */
  const links: { inviteId: string; tokenId: string } = {} as never;

  beforeAll(async () => {
    const workspace = await startWorkspace(dialect, { people: { owner: "owner", admin: "admin", insider: "member", outsider: "member", guest: "guest" } });
    server = workspace.server;
    const { owner, admin, insider, outsider, guest } = workspace.people;
    const inAgent = await createAgent(insider, "inagent");
    const outAgent = await createAgent(outsider, "outagent");
    for (const [name, role, person] of [
      ["owner", "owner", owner],
      ["admin", "admin", admin],
      ["insider", "member", insider],
      ["outsider", "member", outsider],
      ["guest", "guest", guest],
    ] as const) {
      actors.push({ name, role, person, socket: await person.socket(), id: person.participantId });
    }
    actors.push({ name: "inagent", role: "agent", socket: await openAgentSocket(server.url, inAgent.apiKey), apiKey: inAgent.apiKey, id: inAgent.id });
    actors.push({ name: "outagent", role: "agent", socket: await openAgentSocket(server.url, outAgent.apiKey), apiKey: outAgent.apiKey, id: outAgent.id });
    // Another workspace on the same server: its admin, and its admin's agent.
    const other = await startWorkspace(dialect, { people: { otherowner: "owner", foreigner: "admin" } });
    expect(other.server.url).toBe(server.url);
    const foreigner = other.people.foreigner;
    const foreignAgent = await createAgent(foreigner, "foreignagent");
    actors.push({ name: "foreigner", role: "admin", person: foreigner, socket: await foreigner.socket(), id: foreigner.participantId, foreign: true });
    actors.push({
      name: "foreignagent",
      role: "agent",
      socket: await openAgentSocket(server.url, foreignAgent.apiKey),
      apiKey: foreignAgent.apiKey,
      id: foreignAgent.id,
      foreign: true,
    });

    for (const visibility of ["public", "private"] as const) {
      const members = [insider.participantId, inAgent.id];
      const room = await insider.api.rooms.createChannel.mutate({ name: `${visibility}-room`, visibility, memberIds: [inAgent.id] });
      const root = await insider.api.messages.send.mutate({ roomId: room.id, body: "root", clientMsgId: randomUUID() });
      // A word only this room's message holds, and a file shared with it (uploaded by the room's agent).
      const needle = `matrixneedle${visibility}${dialect}`;
      const uploaded = await fetch(`${server.url}/api/files?roomId=${room.id}&name=notes.txt`, {
        method: "POST",
        headers: { authorization: `Bearer ${inAgent.apiKey}` },
        body: `notes of the ${visibility} room`,
      });
      const file = ((await uploaded.json()) as { data: FileView }).data;
      await insider.api.messages.send.mutate({ roomId: room.id, body: `the ${needle} plan`, clientMsgId: randomUUID() });
      await emitAck(actors.find((a) => a.name === "inagent")!.socket!, "message:send", {
        roomId: room.id,
        body: "notes attached",
        clientMsgId: randomUUID(),
        fileIds: [file.id],
      });
      rooms[visibility] = { id: room.id, members: new Set(members), rootId: root.id, fileUrl: `${server.url}${file.url}`, needle };
    }
    const none = () => `nobody${randomUUID().replaceAll("-", "")}`.slice(0, 36);
    phantom = {
      id: none(),
      members: new Set(),
      rootId: none(),
      fileUrl: `${server.url}/api/files/${none()}/notes.txt`,
      needle: `matrixneedlenobody${dialect}`,
    };
    links.inviteId = (await owner.api.workspace.createInvite.mutate({})).id;
    links.tokenId = (await insider.api.agents.createOnboardingToken.mutate({ label: "for the foreigner" })).id;
  });
  afterAll(async () => {
    closeSockets();
    await server.dispose();
  });

  const cases: [string, "public" | "private", Action, Transport][] = [];
  for (const name of ["owner", "admin", "insider", "outsider", "guest", "inagent", "outagent", "foreigner", "foreignagent"]) {
    for (const room of ["public", "private"] as const) {
      for (const action of ["history", "sync", "thread", "members", "send", "read-cursor", "search", "file"] as const) {
        for (const transport of ["trpc", "socket", "http"] as const) {
          const agent = name.endsWith("agent");
          // A file is fetched over HTTP (the person's session, the agent's key); nothing else is.
          if ((action === "file") !== (transport === "http")) continue;
          if (transport === "http") {
            cases.push([name, room, action, transport]);
            continue;
          }
          const socketCan = action === "sync" || action === "send" || action === "read-cursor" || action === "search";
          if ((agent && transport === "trpc") || (transport === "socket" && !socketCan)) continue;
          cases.push([name, room, action, transport]);
        }
      }
    }
  }

  /** What `actor` gets for `action` on `room` over `transport`. */
  async function attempt(actor: Actor, room: Room, action: Action, transport: Transport): Promise<Outcome> {
    const name = actor.name;
    let got: Outcome;
    if (action === "file") {
      const headers: Record<string, string> = actor.apiKey ? { authorization: `Bearer ${actor.apiKey}` } : { cookie: actor.person!.cookie };
      const res = await fetch(room.fileUrl, { headers });
      got = res.ok ? "OK" : ((await res.json()) as { error: { code: string } }).error.code;
    } else if (action === "search") {
      const hits =
        transport === "trpc"
          ? (await actor.person!.api.search.messages.query({ query: room.needle })).hits
          : await emitAck<Ack<{ hits: unknown[] }>>(actor.socket!, "search:messages", { query: room.needle }).then((r) => (r.ok ? r.data.hits : []));
      got = hits.length === 1 ? "OK" : hits.length === 0 ? "NO_HIT" : `${hits.length} hits`;
    } else if (transport === "trpc") {
      const api = actor.person!.api;
      const call = {
        history: () => api.messages.history.query({ roomId: room.id, limit: 5 }),
        sync: () => api.messages.sync.query({ roomId: room.id, afterSeq: 0, limit: 5 }),
        thread: () => api.messages.thread.query({ messageId: room.rootId }),
        members: () => api.rooms.members.query({ roomId: room.id }),
        send: () => api.messages.send.mutate({ roomId: room.id, body: `from ${name}`, clientMsgId: randomUUID() }),
        "read-cursor": () => api.messages.markRead.mutate({ roomId: room.id, seq: 1 }),
      }[action];
      got = await call().then(
        () => "OK",
        (error: unknown) => errorCode(Promise.reject(error)),
      );
    } else {
      const [event, payload] = {
        sync: ["room:sync", { roomId: room.id, afterSeq: 0, limit: 5 }],
        send: ["message:send", { roomId: room.id, body: `from ${name}`, clientMsgId: randomUUID() }],
        "read-cursor": ["room:read", { roomId: room.id, seq: 1 }],
      }[action as "sync" | "send" | "read-cursor"] as [string, unknown];
      const reply = await emitAck<Ack<unknown>>(actor.socket!, event, payload);
      got = reply.ok ? "OK" : reply.error.code;
    }
    return got;
  }

  it.each(cases)("%s in the %s room: %s over %s", async (name, visibility, action, transport) => {
    const actor = actors.find((a) => a.name === name)!;
    const room = rooms[visibility];
    // Another workspace's actor: what ids nobody has get (never NOT_A_MEMBER, which says the room is there).
    const want = actor.foreign ? await attempt(actor, phantom, action, transport) : expected(visibility, room.members.has(actor.id), actor.role, action);
    if (actor.foreign) expect(want).toMatch(/NOT_FOUND|NO_HIT/);
    const got = await attempt(actor, room, action, transport);
    expect(got, actor.foreign ? "another workspace's actor gets what an id nobody has gets (anything else tells it the thing exists)" : undefined).toBe(want);
  });

  // Invite links and onboarding tokens are managed over tRPC only, by people.
  const linkCases: [string, LinkAction][] = [];
  for (const name of ["owner", "admin", "insider", "outsider", "guest"]) {
    for (const action of [
      "invites.list",
      "invites.revoke",
      "tokens.create",
      "tokens.list-mine",
      "tokens.list-workspace",
      "tokens.revoke-own",
      "tokens.revoke-others",
    ] as const) {
      if (name === "guest" && action === "tokens.revoke-own") continue; // guests have no tokens of their own
      linkCases.push([name, action]);
    }
  }

  it.each(linkCases)("%s: %s", async (name, action) => {
    const actor = actors.find((a) => a.name === name)!;
    const api = actor.person!.api;
    const person = (who: string) => actors.find((a) => a.name === who)!.person!.api;
    // Each case revokes a fresh target: the owner's invite, the actor's own token, or another member's.
    const call = {
      "invites.list": () => api.workspace.invites.query(),
      "invites.revoke": async () => api.workspace.revokeInvite.mutate({ inviteId: (await person("owner").workspace.createInvite.mutate({})).id }),
      "tokens.create": () => api.agents.createOnboardingToken.mutate({ label: `by ${name}` }),
      "tokens.list-mine": () => api.agents.onboardingTokens.query({ scope: "mine" }),
      "tokens.list-workspace": () => api.agents.onboardingTokens.query({ scope: "workspace" }),
      "tokens.revoke-own": async () =>
        api.agents.revokeOnboardingToken.mutate({ tokenId: (await api.agents.createOnboardingToken.mutate({ label: "own" })).id }),
      "tokens.revoke-others": async () => {
        const other = person(name === "insider" ? "outsider" : "insider");
        return api.agents.revokeOnboardingToken.mutate({ tokenId: (await other.agents.createOnboardingToken.mutate({ label: "theirs" })).id });
      },
    }[action];
    const got = await call().then(
      () => "OK",
      (error: unknown) => errorCode(Promise.reject(error)),
    );
    expect(got).toBe(expectedForLinks(actor.role, action));
  });

  // The other workspace's admin revokes this one's invite link and onboarding token: as ids nobody has.
  it.each(["invites.revoke", "tokens.revoke"] as const)("foreigner: %s of this workspace", async (action) => {
    const api = actors.find((a) => a.name === "foreigner")!.person!.api;
    const revoke = (id: string) =>
      action === "invites.revoke" ? api.workspace.revokeInvite.mutate({ inviteId: id }) : api.agents.revokeOnboardingToken.mutate({ tokenId: id });
    const nobody = await errorCode(revoke(`nobody${randomUUID()}`.slice(0, 36)));
    expect(nobody).toMatch(/NOT_FOUND/);
    expect(await errorCode(revoke(action === "invites.revoke" ? links.inviteId : links.tokenId))).toBe(nobody);
  });

  const workspaceCases: [string, WorkspaceAction][] = [];
  for (const name of ["owner", "admin", "insider", "guest"]) {
    for (const action of ["channels.browse", "invites.create-member", "invites.create-guest", "invites.create-admin"] as const)
      workspaceCases.push([name, action]);
  }

  it.each(workspaceCases)("%s: %s", async (name, action) => {
    const actor = actors.find((a) => a.name === name)!;
    const api = actor.person!.api;
    const call = {
      "channels.browse": () => api.rooms.browse.query(),
      "invites.create-member": () => api.workspace.createInvite.mutate({ role: "member" }),
      "invites.create-guest": () => api.workspace.createInvite.mutate({ role: "guest" }),
      "invites.create-admin": () => api.workspace.createInvite.mutate({ role: "admin" }),
    }[action];
    const got = await call().then(
      () => "OK",
      (error: unknown) => errorCode(Promise.reject(error)),
    );
    expect(got).toBe(expectedForWorkspace(actor.role, action));
  });
});
