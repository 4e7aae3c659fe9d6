// The Python client in docs/protocol.md ("A minimal client without the SDK"), run as written with
// python-socketio against a real server: it answers a burst of mentions once each (python-socketio
// runs handlers concurrently), and after a restart answers what it missed and nothing twice.
// Needs a python3 with python-socketio (Debian: apt-get install python3-socketio python3-websocket);
// without one the test is skipped, loudly.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, dialects, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

const DOC = path.resolve(import.meta.dirname, "../../docs/protocol.md");

/** The first ```python block after the heading. */
function docExample(heading = "## A minimal client without the SDK"): string {
  const text = readFileSync(DOC, "utf8");
  const section = text.slice(text.indexOf(heading));
  const match = /```python\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`no Python example after "${heading}" in docs/protocol.md`);
  return match[1];
}

const python = ["python3", "/usr/bin/python3"].find((bin) => spawnSync(bin, ["-c", "import socketio, websocket"]).status === 0);
if (!python) console.warn("\n!!! No python3 with python-socketio and websocket-client: SKIPPING the doc's Python example !!!\n");

// On one database: what this file tests is the doc's client against the socket protocol; the server's
// side of it runs on both databases in the other files.
describe.runIf(python).each([dialects[0]])("the protocol doc's Python client on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let agent: { id: string; apiKey: string };
  let roomId: string;
  let dir: string;
  let child: ChildProcess | null = null;
  let handled: string[] = [];
  let output = "";

  function start() {
    child = spawn(python!, ["agent.py"], {
      cwd: dir,
      env: { ...process.env, SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: agent.apiKey },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      handled = [...output.matchAll(/^handled (\S+) (\d+)$/gm)].filter((m) => m[1] === roomId).map((m) => m[2]);
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  }
  async function stop() {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill("SIGTERM");
    await exited;
    child = null;
  }
  const mention = (text: string) => owner.api.messages.send.mutate({ roomId, body: `@pyecho ${text}`, clientMsgId: randomUUID() });
  const repliesTo = async (messageId: string) => (await owner.api.messages.thread.query({ messageId })).replies.map((r) => r.body);

  beforeAll(async () => {
    ({
      server,
      people: { pyowner: owner },
    } = await startWorkspace(dialect, { people: { pyowner: "owner" } }));
    agent = await createAgent(owner, "pyecho");
    roomId = (await owner.api.rooms.createChannel.mutate({ name: "python", visibility: "private", memberIds: [agent.id] })).id;
    dir = mkdtempSync(path.join(tmpdir(), "switchboard-py-"));
    writeFileSync(path.join(dir, "agent.py"), docExample());
  });
  afterAll(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    await server.dispose();
  });

  it("is replayed what it missed, answers a burst of mentions once each, and resumes after a restart without answering twice", async () => {
    const early = await mention("before you came");
    start();
    await waitFor(() => handled.includes(String(early.seq)), 20_000, `the replayed mention (output: ${output})`);

    // A burst: the mentions arrive together, and python-socketio hands each to a handler thread of its own.
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => mention(`burst ${i}`)));
    // Handled in order, once: a later message is handled only after the ones before it, so once the
    // sentinel is, every earlier one has been, and none again.
    const sentinel = await mention("sentinel");
    await waitFor(() => handled.includes(String(sentinel.seq)), 30_000, `the sentinel (output: ${output})`);
    expect(handled).toEqual(
      [early, ...burst, sentinel]
        .map((m) => m.seq)
        .sort((a, b) => a - b)
        .map(String),
    );
    for (const m of [early, ...burst, sentinel]) expect(await repliesTo(m.id)).toEqual([`echo: ${m.body}`]);

    // Down, two mentions meanwhile, up again: exactly those two are handled.
    await stop();
    const missed = [await mention("while you were away 1"), await mention("while you were away 2")];
    output = "";
    handled = [];
    start();
    await waitFor(() => handled.includes(String(missed[1].seq)), 20_000, `the missed mentions (output: ${output})`);
    const after = await mention("after the restart");
    await waitFor(() => handled.includes(String(after.seq)), 20_000, `the mention after the restart (output: ${output})`);
    expect(handled).toEqual([...missed, after].map((m) => String(m.seq)));
    for (const m of [...missed, after]) expect(await repliesTo(m.id)).toEqual([`echo: ${m.body}`]);
    expect(output).not.toMatch(/Traceback|refused/);
  });

  it('asks its owner ("Asking a person") and prints the decision; run again, it gets the same question back, already decided', async () => {
    writeFileSync(path.join(dir, "ask.py"), docExample("### Asking a person"));
    const run = () => {
      const proc = spawn(python!, ["ask.py", roomId], {
        cwd: dir,
        env: { ...process.env, SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: agent.apiKey },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
      return { output: () => out, done: new Promise<number | null>((resolve) => proc.once("exit", resolve)) };
    };
    const first = run();
    let question: { id: string } | undefined;
    await waitFor(
      () => question !== undefined,
      20_000,
      "the Python agent's question",
      async () => {
        question = (await owner.api.questions.list.query({ for: "me" })).find((q) => q.prompt === "Deploy v2 to production?");
      },
    );
    await owner.api.questions.answer.mutate({ questionId: question!.id, answer: { approved: true } });
    expect(await first.done).toBe(0);
    expect(first.output()).toContain("decided answered True");
    const second = run();
    expect(await second.done).toBe(0);
    expect(second.output()).toContain("decided answered True");
    expect((await owner.api.questions.list.query({ for: "me", status: "all" })).filter((q) => q.prompt === "Deploy v2 to production?")).toHaveLength(1);
  });

  it('runs turns on a runtime binding ("Runtime bindings"): a session made once, resumed by the next turn, a message already handled skipped', async () => {
    writeFileSync(path.join(dir, "bind.py"), docExample("### Runtime bindings"));
    const turn = async (seq: number) => {
      const proc = spawn(python!, ["bind.py", roomId, String(seq)], {
        cwd: dir,
        env: { ...process.env, SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: agent.apiKey },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
      expect(await new Promise<number | null>((resolve) => proc.once("exit", resolve)), out).toBe(0);
      const [, session, turns, resumes, status] = /^bound (\S+) (\d+) (\d+) (\S+)$/m.exec(out) ?? [];
      return { session, turns: Number(turns), resumes: Number(resumes), status };
    };
    const first = await turn(5);
    expect(first).toMatchObject({ session: expect.stringMatching(/^session-/), turns: 1, resumes: 0, status: "idle" });
    expect(await turn(6)).toEqual({ session: first.session, turns: 2, resumes: 1, status: "idle" });
    expect(await turn(6)).toEqual({ session: first.session, turns: 2, resumes: 1, status: "idle" }); // handled: no turn
    const [binding] = await owner.api.bindings.ofRoom.query({ roomId, includeClosed: false });
    expect(binding).toMatchObject({ runtime: "my-framework", externalId: first.session, lastSeq: 6, runner: "py", agent: { handle: "pyecho" } });
  });
});
