// People's access tokens: a script acts as the person who made the token, over the socket
// (`auth.apiKey`) and over tRPC (`Authorization: Bearer`), under the person's current role and the
// token's scope. A read token reads and nothing else; a revoked or expired token is refused and its
// sockets closed; only a hash is stored; every creation, revocation and (once per window) failed use is
// audited; a token never mints a broader or longer-lived one; the CLI's login trades a password for a
// token under sign-in's own limits. The server trusts one proxy, so each test picks its own addresses.
import { createHash, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Ack, ClientToServerEvents } from "@switchboard/sdk/contract";
import { handshake } from "./fixtures/handshake";
import {
  apiClient,
  closeSockets,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  queryDb,
  signUpPerson,
  sqlDate,
  waitFor,
  type ClientSocket,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const PASSWORD = "correct horse battery"; // the harness signs everyone up with it
const REFUSED = "Invalid, expired or revoked access token";

/** Every socket event that changes something: a read token gets INSUFFICIENT_SCOPE for each. */
const WRITE_EVENTS: (keyof ClientToServerEvents)[] = [
  "message:send",
  "message:edit",
  "message:delete",
  "room:typing",
  "room:mode",
  "room:join",
  "room:leave",
  "message:receipt",
  "me:status",
  "connection:request",
  "connection:respond",
  "connection:cancel",
  "connection:revoke",
  "connection:block",
  "room:create",
  "room:invite",
  "room:dm",
  "usage:report",
];

/** Every tRPC mutation (sign-up included): a read token gets INSUFFICIENT_SCOPE before its input is looked at. */
const MUTATIONS = [
  "admin.setRole",
  ...[
    "create",
    "rotateKey",
    "revokeKey",
    "createOnboardingToken",
    "revokeOnboardingToken",
    "suspend",
    "resume",
    "setLimits",
    "setConsentPolicy",
    "setDeliveryMode",
  ].map((p) => `agents.${p}`),
  ...["request", "respond", "cancel", "revoke", "block"].map((p) => `connections.${p}`),
  ...["send", "edit", "delete", "markRead"].map((p) => `messages.${p}`),
  ...["createChannel", "join", "leave", "invite", "openDirect"].map((p) => `rooms.${p}`),
  "tokens.create",
  "tokens.revoke",
  "notifications.setPreference",
  ...["setPrice", "deletePrice", "setBudget", "deleteBudget"].map((p) => `usage.${p}`),
  ...["setLimits", "setRateExemption", "updateSettings", "signUp", "createInvite", "revokeInvite"].map((p) => `workspace.${p}`),
];

const ackCode = (ack: Ack<unknown>) => (ack.ok ? "OK" : ack.error.code);

/** A tRPC client that authenticates with `Authorization: Bearer <token>` (no cookie). */
const bearer = (server: TestServer, token: string) => apiClient(server.url, undefined, { authorization: `Bearer ${token}` });

/** A raw tRPC mutation with a bearer token: the HTTP status and the app error's code and message. */
async function rawMutation(server: TestServer, token: string, path: string, input: unknown) {
  const response = await fetch(`${server.url}/api/trpc/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ json: input }),
  });
  const body = (await response.json()) as { error?: { json: { data: { app: { code: string; message: string } } } } };
  return { status: response.status, code: body.error?.json.data.app.code ?? "OK", message: body.error?.json.data.app.message };
}

/** POST /api/v1/tokens from an address: the HTTP status and the answer. */
async function login(server: TestServer, from: string, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/v1/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
    body: JSON.stringify({ name: "cli", scope: "write", ...body }),
  });
  const answer = (await response.json()) as {
    ok: boolean;
    data?: { token: string; accessToken: { id: string; scope: string } };
    error?: { code: string; message: string };
  };
  return { status: response.status, ...answer };
}

/** A refused handshake's error (code and message). */
async function refusal(server: TestServer, token: string): Promise<{ code: string; message: string }> {
  const { io } = await import("socket.io-client");
  const socket = io(server.url, { path: "/socket.io", transports: ["websocket"], reconnection: false, auth: { apiKey: token, protocol: 1 } });
  try {
    return await new Promise((resolve) => {
      socket.once("session:ready", () => resolve({ code: "OK", message: "" }));
      socket.once("connect_error", (e: Error & { data?: { code: string; message: string } }) => resolve(e.data ?? { code: e.message, message: e.message }));
    });
  } finally {
    socket.disconnect();
  }
}

/** Resolves once the socket is closed by the server; answers how long that took (ms). */
function closedWithin(socket: ClientSocket, ms: number): Promise<number> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    if (!socket.connected) return resolve(0);
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.once("disconnect", () => {
      clearTimeout(timer);
      resolve(Date.now() - start);
    });
  });
}

const jsonOf = (data: unknown) => (typeof data === "string" ? (JSON.parse(data) as Record<string, unknown>) : (data as Record<string, unknown>));

describe.each(dialects)("personal access tokens on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let general: string;
  let invited = 0;
  const join = async (role: "admin" | "member", handle = `p${++invited}-${randomUUID().slice(0, 6)}`) =>
    signUpPerson(server, { handle, inviteToken: (await owner.api.workspace.createInvite.mutate({ role })).token });
  const audited = (action: string, subjectId: string) =>
    queryDb<{ actorId: string | null; address: string | null; data: unknown }>(
      server,
      `SELECT "actorId", address, data FROM "AuditEvent" WHERE action = $1 AND "subjectId" = $2`,
      [action, subjectId],
    );

  beforeAll(async () => {
    ({
      server,
      people: { olga: owner },
    } = await startWorkspace(dialect, { people: { olga: "owner" }, env: { TRUST_PROXY: "1" } }));
    general = (await owner.api.rooms.mine.query()).find((r) => r.name === "general")!.id;
  });
  afterEach(closeSockets);
  afterAll(() => server?.dispose());

  it("acts as the person with a write token, over the socket and tRPC; only a hash is stored", async () => {
    const wes = await join("member");
    const { token, accessToken } = await wes.api.tokens.create.mutate({ name: "laptop script", scope: "write", expiresInDays: 30 });
    expect(token).toMatch(/^sbp_[A-Za-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
    expect(accessToken).toMatchObject({
      name: "laptop script",
      scope: "write",
      state: "active",
      prefix: token.slice(0, 14),
      revokedAt: null,
      can: { revoke: true },
    });

    const socket = await openAgentSocket(server.url, token);
    const sent = await emitAck<Ack<{ author: { id: string; kind: string } }>>(socket, "message:send", {
      roomId: general,
      body: "from my script",
      clientMsgId: randomUUID(),
    });
    expect(sent.ok && sent.data.author).toMatchObject({ id: wes.participantId, kind: "human" });
    const viaTrpc = await bearer(server, token).messages.send.mutate({ roomId: general, body: "over tRPC", clientMsgId: randomUUID() });
    expect(viaTrpc.author.id).toBe(wes.participantId);
    expect((await bearer(server, token).workspace.me.query())?.me.id).toBe(wes.participantId);

    const listed = await wes.api.tokens.list.query();
    expect(listed.map((t) => t.id)).toEqual([accessToken.id]);
    expect(listed[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(token.slice(15)); // the secret is never presented again

    // The row: the token's SHA-256 and its prefix, never the token or its secret.
    const [row] = await queryDb<Record<string, unknown>>(server, `SELECT * FROM "AccessToken" WHERE id = $1`, [accessToken.id]);
    expect(row.hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(row.prefix).toBe(token.slice(4, 14));
    expect(Object.values(row).some((v) => typeof v === "string" && v.includes(token.slice(15)))).toBe(false);
  });

  it("lets a read token read, and refuses every write over the socket and tRPC with INSUFFICIENT_SCOPE", async () => {
    const rae = await join("admin");
    const { token } = await rae.api.tokens.create.mutate({ name: "dashboard", scope: "read" });
    const socket = await openAgentSocket(server.url, token);

    const sync = await emitAck<Ack<{ messages: unknown[] }>>(socket, "room:sync", { roomId: general, afterSeq: 0 });
    expect(ackCode(sync)).toBe("OK");
    for (const [event, payload] of [
      ["room:list", {}],
      ["directory:search", { text: "olga" }],
      ["connection:list", {}],
      ["room:read", { roomId: general, seq: 1 }],
      ["delivery:ack", { roomId: general, seq: 1 }],
    ] as const) {
      expect(ackCode(await emitAck<Ack<unknown>>(socket, event, payload)), event).toBe("OK");
    }
    for (const event of WRITE_EVENTS) {
      const ack = await emitAck<Ack<unknown>>(socket, event, { roomId: general, body: "nope", clientMsgId: randomUUID() });
      expect(ack.ok ? "OK" : ack.error, event).toMatchObject({ code: "INSUFFICIENT_SCOPE", retryable: false });
    }
    expect((await bearer(server, token).rooms.mine.query()).some((r) => r.id === general)).toBe(true);
    for (const path of MUTATIONS) expect(await rawMutation(server, token, path, {}), path).toMatchObject({ status: 403, code: "INSUFFICIENT_SCOPE" });
    // Nothing was written: the room's timeline has no "nope".
    const page = await rae.api.messages.sync.query({ roomId: general, afterSeq: 0 });
    expect(page.messages.some((m) => m.body === "nope")).toBe(false);
  });

  it("refuses a revoked token and closes its open socket at once; an expired one is refused and closes at expiry", async () => {
    const ria = await join("member");
    const { token, accessToken } = await ria.api.tokens.create.mutate({ name: "runner", scope: "write", expiresInDays: 7 });
    const socket = await openAgentSocket(server.url, token);
    const closing = closedWithin(socket, 2000);
    expect(await ria.api.tokens.revoke.mutate({ tokenId: accessToken.id })).toMatchObject({ state: "revoked", can: { revoke: false } });
    expect(await closing).toBeLessThan(1000);
    expect(await refusal(server, token)).toEqual({ code: "UNAUTHENTICATED", message: REFUSED, retryable: false });
    expect(await rawMutation(server, token, "messages.send", { roomId: general, body: "late", clientMsgId: randomUUID() })).toEqual({
      status: 401,
      code: "UNAUTHENTICATED",
      message: REFUSED,
    });
    // Revoking again changes nothing.
    expect((await ria.api.tokens.revoke.mutate({ tokenId: accessToken.id })).revokedAt).not.toBeNull();

    // An expired token gets the very same answer.
    const lapsed = await ria.api.tokens.create.mutate({ name: "lapsed", scope: "write", expiresInDays: 1 });
    await queryDb(server, `UPDATE "AccessToken" SET "expiresAt" = $1 WHERE id = $2`, [sqlDate(dialect, new Date(Date.now() - 1000)), lapsed.accessToken.id]);
    expect(await refusal(server, lapsed.token)).toEqual({ code: "UNAUTHENTICATED", message: REFUSED, retryable: false });
    expect(await errorCode(bearer(server, lapsed.token).rooms.mine.query())).toBe("UNAUTHENTICATED");
    expect((await ria.api.tokens.list.query()).find((t) => t.id === lapsed.accessToken.id)?.state).toBe("expired");

    // A socket opened with a token that is about to expire is closed when it does.
    const brief = await ria.api.tokens.create.mutate({ name: "brief", scope: "read", expiresInDays: 1 });
    const expiresAt = Date.now() + 3000;
    await queryDb(server, `UPDATE "AccessToken" SET "expiresAt" = $1 WHERE id = $2`, [sqlDate(dialect, new Date(expiresAt)), brief.accessToken.id]);
    const expiring = await openAgentSocket(server.url, brief.token);
    await closedWithin(expiring, 8000);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  });

  it("follows the person's role at once, and a read token stays read-only when the role changes", async () => {
    const ada = await join("admin");
    const write = await ada.api.tokens.create.mutate({ name: "admin script", scope: "write" });
    const read = await ada.api.tokens.create.mutate({ name: "admin reader", scope: "read" });
    const lobby = (await owner.api.rooms.createChannel.mutate({ name: `lobby-${randomUUID().slice(0, 8)}`, visibility: "public" })).id;
    const [writer, reader] = await Promise.all([openAgentSocket(server.url, write.token), openAgentSocket(server.url, read.token)]);
    const preview = async (socket: ClientSocket) => ackCode(await emitAck<Ack<unknown>>(socket, "room:sync", { roomId: lobby, afterSeq: 0 }));
    expect(await bearer(server, write.token).admin.members.query()).not.toHaveLength(0);
    expect([await preview(writer), await preview(reader)]).toEqual(["OK", "OK"]);

    await owner.api.admin.setRole.mutate({ participantId: ada.participantId, role: "guest" });
    expect(await errorCode(bearer(server, write.token).admin.members.query())).toBe("FORBIDDEN");
    // Open sockets are read again at once (rights.test.ts): a guest may not preview a channel.
    for (const socket of [writer, reader]) {
      const start = Date.now();
      while ((await preview(socket)) !== "NOT_A_MEMBER") {
        if (Date.now() - start > 1000) throw new Error("still has a member's rights after 1 s");
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(writer.connected && reader.connected).toBe(true);
    // Read again as a guest, the read token is still read-only; the write token still writes.
    const post = (socket: ClientSocket) => emitAck<Ack<unknown>>(socket, "message:send", { roomId: general, body: "as a guest", clientMsgId: randomUUID() });
    expect(ackCode(await post(reader))).toBe("INSUFFICIENT_SCOPE");
    expect(ackCode(await post(writer))).toBe("OK");
  });

  it("audits creation and revocation, and a failed use once per window", async () => {
    const ora = await join("member");
    const { token, accessToken } = await ora.api.tokens.create.mutate({ name: "audited", scope: "read", expiresInDays: 90 });
    const [created] = await audited("access_token.created", accessToken.id);
    expect(created.actorId).toBe(ora.participantId);
    expect(jsonOf(created.data)).toMatchObject({ name: "audited", scope: "read", prefix: accessToken.prefix, via: "session" });
    expect(JSON.stringify(created)).not.toContain(token.slice(15));

    await ora.api.tokens.revoke.mutate({ tokenId: accessToken.id });
    await ora.api.tokens.revoke.mutate({ tokenId: accessToken.id });
    expect(await audited("access_token.revoked", accessToken.id)).toHaveLength(1);

    // Three uses of the revoked token, and one with its prefix and another secret: one entry.
    expect(await handshake(server.url, { headers: { "X-Forwarded-For": "10.7.0.1" }, auth: { apiKey: token } })).toBe("UNAUTHENTICATED");
    expect(await handshake(server.url, { headers: { "X-Forwarded-For": "10.7.0.2" }, auth: { apiKey: token } })).toBe("UNAUTHENTICATED");
    expect(await errorCode(bearer(server, token).tokens.list.query())).toBe("UNAUTHENTICATED");
    expect(await errorCode(bearer(server, `${token.slice(0, 15)}${"x".repeat(43)}`).tokens.list.query())).toBe("UNAUTHENTICATED");
    const failed = await audited("access_token.failed", accessToken.id);
    expect(failed).toHaveLength(1);
    expect(failed[0].address).toBe("10.7.0.1");
    expect(jsonOf(failed[0].data)).toMatchObject({ participantId: ora.participantId, reason: "revoked", notAuditedAgainForSec: 600 });
    expect(await owner.api.admin.verifyAudit.query()).toMatchObject({ ok: true });
  });

  it("never lets a token mint a broader or longer-lived token; each person manages only their own", async () => {
    const tim = await join("member");
    const read = await tim.api.tokens.create.mutate({ name: "reader", scope: "read" });
    const week = await tim.api.tokens.create.mutate({ name: "week", scope: "write", expiresInDays: 7 });
    const lasting = await tim.api.tokens.create.mutate({ name: "lasting", scope: "write" });
    const mint = (token: string, scope: "read" | "write", expiresInDays: number | null) =>
      errorCode(bearer(server, token).tokens.create.mutate({ name: "minted", scope, expiresInDays }));

    expect(await mint(read.token, "read", 1)).toBe("INSUFFICIENT_SCOPE");
    expect(await mint(read.token, "write", null)).toBe("INSUFFICIENT_SCOPE");
    expect(await mint(week.token, "write", 30)).toBe("FORBIDDEN");
    expect(await mint(week.token, "read", 7)).toBe("FORBIDDEN"); // a week from now is after the token's own expiry
    expect(await mint(week.token, "read", null)).toBe("FORBIDDEN");
    const minted = await bearer(server, week.token).tokens.create.mutate({ name: "minted", scope: "read", expiresInDays: 1 });
    expect(minted.accessToken.scope).toBe("read");
    expect(jsonOf((await audited("access_token.created", minted.accessToken.id))[0].data)).toMatchObject({
      via: "access_token",
      viaTokenId: week.accessToken.id,
    });
    expect(
      (await bearer(server, lasting.token).tokens.create.mutate({ name: "minted", scope: "write", expiresInDays: null })).accessToken.expiresAt,
    ).toBeNull();

    // Someone else's token does not exist for you, an owner included; agents' keys are not for tRPC.
    expect(await errorCode(owner.api.tokens.revoke.mutate({ tokenId: week.accessToken.id }))).toBe("NOT_FOUND");
    expect((await owner.api.tokens.list.query()).some((t) => t.id === week.accessToken.id)).toBe(false);
    const { apiKey } = await createAgent(tim, `tims-bot-${randomUUID().slice(0, 6)}`);
    const agentOnTrpc = await rawMutation(server, apiKey, "tokens.create", { name: "agent", scope: "read" });
    expect(agentOnTrpc).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
    expect(agentOnTrpc.message).toContain("socket");
  });

  it("trades a person's password for a token at POST /api/v1/tokens; wrong credentials are refused alike and limited per address", async () => {
    const lou = await join("member");
    const email = lou.email;
    const ok = await login(server, "10.9.0.1", { email, password: PASSWORD, scope: "read", expiresInDays: 30 });
    expect(ok).toMatchObject({ status: 200, ok: true, data: { accessToken: { scope: "read" } } });
    expect((await bearer(server, ok.data!.token).workspace.me.query())?.me.id).toBe(lou.participantId);
    expect(jsonOf((await audited("access_token.created", ok.data!.accessToken.id))[0].data)).toMatchObject({ via: "password" });

    const wrongPassword = await login(server, "10.9.0.1", { email, password: "not the password" });
    const unknownEmail = await login(server, "10.9.0.1", { email: "nobody@example.test", password: PASSWORD });
    expect(wrongPassword).toMatchObject({ status: 401, ok: false, error: { code: "UNAUTHENTICATED" } });
    expect(unknownEmail.error).toEqual(wrongPassword.error); // it does not say which part was wrong
    // Audited as sign-in audits (after the answer).
    const [account] = await queryDb<{ id: string }>(server, `SELECT id FROM "Account" WHERE email = $1`, [email]);
    let failures: unknown[] = [];
    await waitFor(
      () => failures.length === 1,
      10_000,
      "the failed attempt audited",
      async () => void (failures = await audited("auth.signin_failed", account.id)),
    );

    // Sign-in's own limit per address: 60 attempts in 10 minutes, then the right password is refused too.
    for (let i = 0; i < 60; i++) expect((await login(server, "10.9.1.1", { email: `nobody${i}@example.test`, password: "guess" })).status).toBe(401);
    expect(await login(server, "10.9.1.1", { email, password: PASSWORD })).toMatchObject({ status: 429, error: { code: "RATE_LIMITED" } });
    expect((await login(server, "10.9.1.2", { email, password: PASSWORD })).status).toBe(200);
  });
});
