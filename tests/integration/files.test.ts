// Files on the real server, on both databases: uploads by a person's session and an agent's key, over
// HTTP, the socket, the SDK and the MCP tools; the limit refused before the body is read whole, an
// interrupted upload leaving nothing; the type sniffed from the bytes and never served as active
// content; names sanitised; who may read (the room's readers once attached, the uploader before, no one
// outside); attaching only one's own unattached uploads; a deleted message's files gone with their
// bytes; uploads never attached swept; `has:file` search.
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Ack, MessageView } from "@switchboard/sdk";
import type { FileView } from "@switchboard/sdk/files";
import { closeDb, openDb } from "../../server/db";
import { sweepFiles } from "../../server/services/files/files";
import { localDiskStorage } from "../../server/storage/local-disk";
import { startWorkspace, type Workspace } from "./factories";
import { png } from "./fixtures/sample-files";
import {
  closeAgentClients,
  closeSockets,
  connectedAgent,
  createAgent,
  dialects,
  emitAck,
  errorCode,
  openAgentSocket,
  queryDb,
  sqlDate,
  unwrap,
  waitFor,
  type Person,
} from "./harness";

type Who = Person | { apiKey: string };
type Answer<T> = { status: number; headers: Headers; json: { ok: true; data: T } | { ok: false; error: { code: string; message: string } } };

describe.each(dialects)("files (%s)", (dialect) => {
  let ws: Workspace<"dana" | "erin" | "fay" | "gus">;
  let dana: Person; // the owner, in #docs
  let erin: Person; // in #docs
  let fay: Person; // a member, not in #docs (private)
  let gus: Person; // a guest in #lobby, not in #docs
  let olga: Person; // another workspace's owner
  let bot: { id: string; apiKey: string };
  let docs: { id: string; name: string | null };
  let lobby: { id: string };
  const filesDir = () => path.join(ws.server.dataDir, "files");

  beforeAll(async () => {
    ws = await startWorkspace(dialect, { people: { dana: "owner", erin: "member", fay: "member", gus: "guest" } });
    ({ dana, erin, fay, gus } = ws.people);
    olga = (await startWorkspace(dialect, { people: { olga: "owner" } })).people.olga;
    bot = await createAgent(dana, `filer-${dialect}`);
    docs = await dana.api.rooms.createChannel.mutate({ name: `docs-${dialect}`, visibility: "private", memberIds: [erin.participantId, bot.id] });
    lobby = await dana.api.rooms.createChannel.mutate({ name: `lobby-${dialect}`, visibility: "public", memberIds: [gus.participantId] });
  });
  afterEach(async () => {
    closeSockets();
    await closeAgentClients();
  });
  afterAll(() => ws?.server.dispose());

  const auth = (who: Who): Record<string, string> =>
    "apiKey" in who ? { authorization: `Bearer ${who.apiKey}` } : { cookie: who.cookie, origin: new URL(ws.server.url).origin };
  async function upload<T = FileView>(who: Who, roomId: string, name: string, body: Buffer | string): Promise<Answer<T>> {
    const query = new URLSearchParams({ roomId, name });
    const res = await fetch(`${ws.server.url}/api/files?${query}`, {
      method: "POST",
      headers: auth(who),
      body: typeof body === "string" ? body : new Uint8Array(body),
    });
    return { status: res.status, headers: res.headers, json: await res.json() };
  }
  const uploaded = async (who: Who, roomId: string, name: string, body: Buffer | string): Promise<FileView> => {
    const answer = await upload(who, roomId, name, body);
    if (!answer.json.ok) throw new Error(`${answer.json.error.code}: ${answer.json.error.message}`);
    return answer.json.data;
  };
  const get = (who: Who | null, file: { url: string }) => fetch(`${ws.server.url}${file.url}`, { headers: who ? auth(who) : {} });
  const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
  const send = (who: Person, roomId: string, body: string, fileIds: string[]) =>
    who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID(), fileIds });
  const keyOf = (file: { id: string }) => path.join(filesDir(), file.id.slice(-2), file.id);
  const partials = () => (existsSync(filesDir()) ? readdirSync(filesDir(), { recursive: true }).filter((f) => String(f).endsWith(".partial")) : []);

  it("takes uploads by a person's session and an agent's key, attaches them to a send, and serves them to the room with what was sniffed", async () => {
    const image = png(64, 48);
    const picture = await uploaded(dana, docs.id, "diagram.png", image);
    expect(picture).toMatchObject({ name: "diagram.png", contentType: "image/png", size: image.length, width: 64, height: 48 });
    const srs = await uploaded(bot, docs.id, "srs.md", "# SRS\n\nThe system shall…\n");
    expect(srs).toMatchObject({ name: "srs.md", contentType: "text/markdown", width: null });

    const message = await send(dana, docs.id, "The diagram", [picture.id]);
    expect(message.files).toEqual([picture]);
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const fromBot = unwrap(
      await emitAck<Ack<MessageView>>(socket, "message:send", { roomId: docs.id, body: "", clientMsgId: randomUUID(), fileIds: [srs.id] }),
    );
    expect(fromBot.files.map((f) => f.id)).toEqual([srs.id]); // a file alone: no text needed

    // Read back the way every reader reads: history, sync (the message store's pages), search.
    const history = await erin.api.messages.history.query({ roomId: docs.id, limit: 10 });
    expect(history.messages.filter((m) => m.files.length).map((m) => m.files.map((f) => f.name))).toEqual([["diagram.png"], ["srs.md"]]);
    const synced = unwrap(await emitAck<Ack<{ messages: MessageView[] }>>(socket, "room:sync", { roomId: docs.id, afterSeq: 0, limit: 10 }));
    expect(synced.messages.flatMap((m) => m.files)).toEqual([picture, srs]);

    const res = await get(erin, picture);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="diagram.png"; filename*=UTF-8''diagram.png`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(image);
    const text = await get(bot, srs);
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("# SRS\n\nThe system shall…\n");
  });

  it("refuses a file past the limit before reading it whole, and keeps nothing of an upload cut off midway", async () => {
    // Content-Length says 30 MB: refused at once, whatever follows.
    const declared = await rawUpload(dana, docs.id, "huge.bin", { declared: 30 * 1024 * 1024, send: 64 * 1024 });
    expect(declared).toMatchObject({ status: 413, code: "FILE_TOO_LARGE" });
    // No Content-Length: counted as it arrives, refused as it passes 25 MB.
    const streamed = await rawUpload(dana, docs.id, "huge.bin", { send: 26 * 1024 * 1024 });
    expect(streamed).toMatchObject({ status: 413, code: "FILE_TOO_LARGE" });
    // Over the socket, past its own bound.
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const big = await emitAck<Ack<FileView>>(socket, "file:upload", {
      roomId: docs.id,
      name: "big.bin",
      contentBase64: Buffer.alloc(160 * 1024 + 1).toString("base64"),
    });
    expect(big.ok ? "ok" : big.error.code).toBe("FILE_TOO_LARGE");
    // A client gone midway.
    await rawUpload(dana, docs.id, "cut.bin", { declared: 1024 * 1024, send: 100 * 1024, abort: true });
    await waitFor(() => partials().length === 0, 10_000, "the partial upload removed");
    const rows = await queryDb<{ name: string }>(
      ws.server,
      `SELECT name FROM "StoredFile" WHERE "roomId" = $1 AND name IN ('huge.bin', 'big.bin', 'cut.bin')`,
      [docs.id],
    );
    expect(rows).toEqual([]);
  });

  it("sniffs the type from the bytes: markup under any name is stored as what it is and served only as a text/plain download", async () => {
    const fake = await uploaded(dana, docs.id, "cat.png", "<html><body><script>alert(document.cookie)</script></body></html>");
    expect(fake).toMatchObject({ contentType: "text/html", width: null });
    const svg = await uploaded(dana, docs.id, "logo.svg", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>`);
    expect(svg.contentType).toBe("image/svg+xml");
    const script = await uploaded(dana, docs.id, "app.js", "alert(1)");
    expect(script.contentType).toBe("text/javascript");
    const binary = await uploaded(dana, docs.id, "notes.txt", Buffer.from([0, 1, 2, 3, 255, 254]));
    expect(binary.contentType).toBe("application/octet-stream");
    const pdf = await uploaded(dana, docs.id, "spec.bin", "%PDF-1.7\n%\xe2\xe3\n1 0 obj\n");
    expect(pdf.contentType).toBe("application/pdf");
    await send(dana, docs.id, "Look", [fake.id, svg.id, script.id, binary.id, pdf.id]);
    for (const file of [fake, svg, script]) {
      const res = await get(erin, file);
      expect(res.headers.get("content-type"), file.name).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("content-disposition"), file.name).toMatch(/^attachment;/);
    }
    expect((await get(erin, binary)).headers.get("content-disposition")).toMatch(/^attachment;/);
    const served = await get(erin, pdf);
    expect([served.headers.get("content-type"), served.headers.get("content-disposition")?.split(";")[0]]).toEqual(["application/pdf", "inline"]);
  });

  it("sanitises names: no path, no control or direction characters, a name left whatever was sent", async () => {
    const cases: [string, string][] = [
      ["../../etc/pa\u0000ss\u202ewd.txt", "passwd.txt"],
      ["C:\\Users\\dana\\report \t final.txt", "report final.txt"],
      ["\u0007...", "file"],
      [`${"x".repeat(300)}.md`, `${"x".repeat(197)}.md`],
    ];
    for (const [sent, kept] of cases) expect((await uploaded(dana, docs.id, sent, "text")).name, JSON.stringify(sent)).toBe(kept);
    const odd = await uploaded(dana, docs.id, 'résumé "v2".txt', "text");
    await send(dana, docs.id, "cv", [odd.id]);
    expect((await get(erin, odd)).headers.get("content-disposition")).toBe(
      `inline; filename="r_sum_ _v2_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt`,
    );
  });

  it("lets the room's readers read a message's files and nobody else, and an upload its uploader alone until it is sent", async () => {
    const file = await uploaded(dana, docs.id, "plan.txt", "the plan");
    expect((await get(erin, file)).status).toBe(404); // not on a message yet: Dana's alone
    expect((await get(dana, file)).status).toBe(200);
    await send(dana, docs.id, "The plan", [file.id]);
    expect((await get(erin, file)).status).toBe(200);
    expect((await get(bot, file)).status).toBe(200);
    for (const outsider of [fay, gus, olga]) {
      const res = await get(outsider, file);
      expect([res.status, await codeOf(res)], outsider.handle).toEqual([404, "FILE_NOT_FOUND"]);
    }
    const anonymous = await get(null, file);
    expect([anonymous.status, await codeOf(anonymous)]).toEqual([401, "UNAUTHENTICATED"]);
    // Uploading takes what posting takes: a member of the room, from the app's own pages.
    expect((await upload(fay, docs.id, "x.txt", "x")).json).toMatchObject({ ok: false, error: { code: "ROOM_NOT_FOUND" } });
    expect((await upload(olga, docs.id, "x.txt", "x")).json).toMatchObject({ ok: false, error: { code: "ROOM_NOT_FOUND" } });
    const elsewhere = await fetch(`${ws.server.url}/api/files?roomId=${docs.id}&name=x.txt`, {
      method: "POST",
      headers: { cookie: dana.cookie, origin: "http://evil.example" },
      body: "x",
    });
    expect([elsewhere.status, await codeOf(elsewhere)]).toEqual([403, "FORBIDDEN"]);
    // A person's access token: a read-scoped one reads, and may not upload.
    const reader = { apiKey: (await erin.api.tokens.create.mutate({ name: "files read", scope: "read" })).token };
    expect((await get(reader, file)).status).toBe(200);
    expect((await upload(reader, docs.id, "x.txt", "x")).json).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_SCOPE" } });
    const writer = { apiKey: (await erin.api.tokens.create.mutate({ name: "files write", scope: "write" })).token };
    expect((await upload(writer, docs.id, "y.txt", "y")).json).toMatchObject({ ok: true, data: { name: "y.txt" } });
    // A public channel's files are its readers': anyone of the workspace but a guest not in it.
    const shared = await uploaded(gus, lobby.id, "hello.txt", "hi");
    await send(gus, lobby.id, "hi", [shared.id]);
    expect((await get(fay, shared)).status).toBe(200);
    expect((await get(olga, shared)).status).toBe(404);
  });

  it("attaches only the sender's own uploads to that room, each once", async () => {
    const danas = await uploaded(dana, docs.id, "mine.txt", "mine");
    expect(await errorCode(send(erin, docs.id, "taking it", [danas.id]))).toBe("FILE_NOT_FOUND");
    const inLobby = await uploaded(dana, lobby.id, "lobby.txt", "lobby");
    expect(await errorCode(send(dana, docs.id, "wrong room", [inLobby.id]))).toBe("FILE_NOT_FOUND");
    expect(await errorCode(send(dana, docs.id, "twice", [danas.id, danas.id]))).toBe("INVALID_PAYLOAD");
    expect(await errorCode(send(dana, docs.id, "no such", [randomUUID()]))).toBe("FILE_NOT_FOUND");
    // Two sends racing for one file: one carries it, the other is refused.
    const raced = await Promise.allSettled([send(dana, docs.id, "one", [danas.id]), send(dana, docs.id, "two", [danas.id])]);
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await errorCode(send(dana, docs.id, "again", [danas.id]))).toBe("CONFLICT");
    const carried = await queryDb<{ n: number }>(ws.server, `SELECT COUNT(*) AS n FROM "StoredFile" WHERE id = $1 AND "messageId" IS NOT NULL`, [danas.id]);
    expect(Number(carried[0].n)).toBe(1);
    // A retry of a stored send is answered with the original, files and all.
    const clientMsgId = randomUUID();
    const again = await uploaded(dana, docs.id, "retry.txt", "r");
    const first = await dana.api.messages.send.mutate({ roomId: docs.id, body: "retry", clientMsgId, fileIds: [again.id] });
    const retried = await dana.api.messages.send.mutate({ roomId: docs.id, body: "retry", clientMsgId, fileIds: [again.id] });
    expect(retried).toMatchObject({ id: first.id, files: [again] });
  });

  it("makes a deleted message's files unreadable, their bytes removed", async () => {
    const file = await uploaded(dana, docs.id, "secret.txt", "delete me");
    const message = await send(dana, docs.id, "oops", [file.id]);
    expect(existsSync(keyOf(file))).toBe(true);
    const deleted = await dana.api.messages.delete.mutate({ messageId: message.id });
    expect(deleted.files).toEqual([]);
    const res = await get(erin, file);
    expect([res.status, await codeOf(res)]).toEqual([410, "FILE_GONE"]);
    expect((await get(fay, file)).status).toBe(404); // to outsiders it never existed
    expect(existsSync(keyOf(file))).toBe(false);
  });

  it("sweeps uploads never attached after a day (the sweeper's pass, run here against the server's database and folder)", async () => {
    const stale = await uploaded(dana, docs.id, "forgotten.txt", "forgotten");
    const fresh = await uploaded(dana, docs.id, "fresh.txt", "fresh");
    const sent = await uploaded(dana, docs.id, "sent.txt", "sent");
    await send(dana, docs.id, "sent", [sent.id]);
    const twoDaysAgo = sqlDate(dialect, new Date(Date.now() - 2 * 24 * 3600 * 1000));
    await queryDb(ws.server, `UPDATE "StoredFile" SET "createdAt" = $1 WHERE id IN ($2, $3)`, [twoDaysAgo, stale.id, sent.id]);
    await closeDb();
    openDb(ws.server.databaseUrl);
    try {
      expect(await sweepFiles(localDiskStorage(filesDir()))).toBeGreaterThanOrEqual(1);
    } finally {
      await closeDb();
    }
    expect((await get(dana, stale)).status).toBe(404);
    expect(existsSync(keyOf(stale))).toBe(false);
    expect((await get(dana, fresh)).status).toBe(200);
    expect((await get(erin, sent)).status).toBe(200);
  });

  it("gives agents the same over the SDK (uploadFile, fetchFile) and the socket", async () => {
    const agent = await connectedAgent(ws.server, dana, `sdk-filer-${dialect}`);
    await dana.api.rooms.invite.mutate({ roomId: docs.id, participantIds: [agent.id] });
    const report = Buffer.from("line 1\nline 2\n");
    const file = await agent.client.uploadFile(docs.id, "report.log", report);
    const message = await agent.client.send(docs.id, "Report attached", { fileIds: [file.id] });
    expect(message.files).toEqual([file]);
    expect(await agent.client.fetchFile(file.id)).toEqual({ file, bytes: new Uint8Array(report) });
    const large = randomBytes(200 * 1024); // more than one socket packet carries: fetched over HTTP
    const blob = await agent.client.uploadFile(docs.id, "dump.bin", large);
    await agent.client.send(docs.id, "", { fileIds: [blob.id] });
    const fetched = await agent.client.fetchFile(blob.id);
    expect([fetched.file.contentType, Buffer.from(fetched.bytes).equals(large)]).toEqual(["application/octet-stream", true]);
    expect(await errorCode(agent.client.fetchFile(randomUUID()))).toBe("FILE_NOT_FOUND");
    // The socket's own small upload.
    const socket = await openAgentSocket(ws.server.url, bot.apiKey);
    const small = unwrap(
      await emitAck<Ack<FileView>>(socket, "file:upload", { roomId: docs.id, name: "tiny.txt", contentBase64: Buffer.from("tiny").toString("base64") }),
    );
    expect(small).toMatchObject({ name: "tiny.txt", contentType: "text/plain", size: 4 });
  });

  it("gives MCP hosts upload_file and read_file, and send_message's file_ids", async () => {
    const client = new Client({ name: "files-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", ws.server.url), { requestInit: { headers: { Authorization: `Bearer ${bot.apiKey}` } } }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
      const up = await call("upload_file", { room: `#docs-${dialect}`, name: "review.md", content: "# Review\n\nLooks right." });
      const file = (up.structuredContent as { file: { id: string; content_type: string } }).file;
      expect(file.content_type).toBe("text/markdown");
      const sent = await call("send_message", { room: `#docs-${dialect}`, body: "My review", file_ids: [file.id] });
      expect((sent.structuredContent as { message: { files: { id: string }[] } }).message.files.map((f) => f.id)).toEqual([file.id]);
      const read = await call("read_file", { file_id: file.id });
      expect(read.structuredContent).toMatchObject({ text: "# Review\n\nLooks right." });
      const image = await call("upload_file", { room: `#docs-${dialect}`, name: "shot.png", content: png(20, 10).toString("base64"), encoding: "base64" });
      const imageId = (image.structuredContent as { file: { id: string } }).file.id;
      await call("send_message", { room: `#docs-${dialect}`, body: "", file_ids: [imageId] });
      const seen = await call("read_file", { file_id: imageId });
      expect(seen.content).toContainEqual({ type: "image", data: png(20, 10).toString("base64"), mimeType: "image/png" });
      expect(seen.structuredContent).toMatchObject({ file: { width: 20, height: 10 } });
      const foreign = await call("read_file", { file_id: randomUUID() });
      expect([foreign.isError, (foreign.structuredContent as { error: { code: string } }).error.code]).toEqual([true, "FILE_NOT_FOUND"]);
    } finally {
      await client.close();
    }
  });

  it("finds messages with files by has:file, within what the searcher may read", async () => {
    const file = await uploaded(dana, docs.id, "budget.csv", "a,b\n1,2\n");
    const message = await send(dana, docs.id, "Quarterly budget sheet", [file.id]);
    await send(dana, docs.id, "Quarterly budget, no sheet", []);
    const found = await erin.api.search.messages.query({ query: "quarterly has:file" });
    expect(found.hits.map((h) => h.message.id)).toEqual([message.id]);
    expect(found.hits[0].message.files).toEqual([file]);
    expect((await erin.api.search.messages.query({ query: `has:file in:#docs-${dialect}`, limit: 50 })).hits.length).toBeGreaterThan(3);
    expect((await fay.api.search.messages.query({ query: "quarterly has:file" })).hits).toEqual([]); // #docs is private
  });

  /**
   * An upload written by hand: `declared` as Content-Length (else chunked), `send` bytes written as
   * the server reads them, `abort` to cut the connection after them. The server's answer, if any.
   */
  function rawUpload(who: Person, roomId: string, name: string, opts: { declared?: number; send: number; abort?: boolean }) {
    return new Promise<{ status: number; code: string } | null>((resolve, reject) => {
      const url = new URL(`/api/files?${new URLSearchParams({ roomId, name })}`, ws.server.url);
      const headers: Record<string, string | number> = { ...auth(who), ...(opts.declared ? { "content-length": opts.declared } : {}) };
      const req = request(url, { method: "POST", headers });
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, code: (JSON.parse(text) as { error?: { code: string } }).error?.code ?? "ok" }));
      });
      req.on("error", (error) => (answered || opts.abort ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let written = 0;
      const write = () => {
        while (!answered && written < opts.send) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", write);
        }
        if (opts.abort) {
          req.destroy();
          resolve(null);
        } else if (!answered) req.end();
      };
      write();
    });
  }
});
