// The Python SDK (packages/python) as a person installs it: its wheel built by build_wheel.py with the
// standard library alone, pip-installed into a virtualenv (no index: its dependency, python-socketio
// with aiohttp, comes from the system), and agents run on the installed package from a folder outside
// the repository with a HOME of its own, against a real server: the example answers a mention in the
// thread; an agent killed with SIGKILL mid-message and restarted answers everything once (replies are
// derived from the message, as the TypeScript SDK derives them), one whose server restarts
// reconnects, and run() stops cleanly on signals; a question to a person survives a kill too; usage,
// a work status, tasks, files and a runtime binding reach the person through tRPC; each mention is a
// turn the person watches live (its plan, a tool call, notes, tokens) and stops (the handler is
// cancelled, the receipt fails "stopped by @…", the next message is answered). What the server
// hands out (`pip install <server>/install/python`, the sdist that builds itself) installs the same
// files with no index; the platform tools are the TypeScript SDK's.
// Needs Debian's python3 with python3-socketio, python3-aiohttp and python3-venv; without them the
// tests are skipped, loudly.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCursorStore, type MessageView } from "@switchboard/sdk";
import { TOOL_SPECS } from "@switchboard/sdk/platform-tools";
import { createAgent, dialects, runProcess, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";
import { PYTHON_AGENT } from "../../components/agents/agent-snippets";

const PACKAGE = path.resolve(import.meta.dirname, "../../packages/python");
const SYSTEM_PYTHON = "/usr/bin/python3";
const VERSION = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(PACKAGE, "pyproject.toml"), "utf8"))![1];

const ready = existsSync(SYSTEM_PYTHON) && spawnSync(SYSTEM_PYTHON, ["-c", "import socketio, aiohttp, venv, ensurepip"]).status === 0;
if (!ready) {
  console.warn(
    "\n!!! /usr/bin/python3 lacks python-socketio, aiohttp or venv (Debian: apt-get install python3-socketio python3-aiohttp python3-venv): SKIPPING the Python package's tests !!!\n",
  );
}

/**
 * An agent on the installed package, for the tests below: it echoes what is addressed to it, and on cue
 * sleeps after replying (to be killed there), asks its owner, does some work and reports it, shows its
 * turn's plan and waits for "go on" (from another room: this one's messages wait behind it), or blocks
 * until a person stops it.
 */
const SCENARIO_AGENT = String.raw`
import asyncio, json, os, signal
from switchboard import Agent, FileCursorStore

SLOW = os.environ.get("SLOW") == "1"
GO_ON = asyncio.Event()


async def handle(message, ctx):
    if message["kind"] != "text" or not ctx.addressed:
        return
    body = message["body"]
    print("handling", message["seq"], "replayed" if ctx.replayed else "live", flush=True)
    if "ask me" in body:
        outcome = await ctx.ask("Ship it?", kind="approval")
        await ctx.reply(f"decided: {outcome.status} approved={outcome.approved}")
    elif "do work" in body:
        async with ctx.binding("py-test") as turn:
            if turn.done:
                return
            await turn.set_session(turn.session_id or f"session-{message['seq']}")
            await ctx.set_status("working", "Crunching the numbers", ttl_sec=30)
            await ctx.report_usage("py-test-model", 1200, 300, cached_tokens=200)
            await ctx.report_tasks([{"title": "Crunch the numbers", "status": "in_progress"}], binding_id=turn.binding["id"])
            await ctx.report_files([{"path": "src/crunch.py", "operation": "edit", "lines_added": 3}], binding_id=turn.binding["id"])
            await ctx.reply("on it")
    elif "show your plan" in body:
        ctx.activity.plan([{"title": "Read the question", "status": "completed"}, {"title": "Answer it", "status": "in_progress"}])
        ctx.activity.tool_started("call-1", "search_docs", {"query": "refund policy", "limit": 3})
        ctx.activity.tool_ended("call-1", {"hits": 3, "top": "Refunds within 30 days"})
        for i in range(60):  # more than a batch
            ctx.activity.note(f"step {i}")
        await ctx.report_usage("py-test-model", 1000, 50, cost_usd=0.002)
        await GO_ON.wait()
        await ctx.reply("planned")
    elif "go on" in body:
        GO_ON.set()
    elif "block" in body:
        async with ctx.binding("py-test") as turn:
            await turn.set_session(f"session-{message['seq']}")
            ctx.activity.tool_started("wait-1", "wait_for_ci", {"command": "sleep 60"})
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                print("cancelled", message["seq"], ctx.stopped, ctx.stopped_by["handle"], flush=True)
                raise
    else:
        await ctx.reply(f"echo: {body}")
        if "slow" in body and SLOW:
            print("replied", message["seq"], flush=True)
            await asyncio.sleep(600)  # killed here: the message is never acknowledged
    print("handled", message["seq"], flush=True)


def agent():
    return Agent(os.environ["SWITCHBOARD_URL"], os.environ["SWITCHBOARD_API_KEY"], handle, cursors=FileCursorStore(os.environ["CURSORS"]))


async def main():
    async with agent() as running:
        closing = []
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: closing.append(asyncio.ensure_future(running.close())))
        [whoami] = running.client.platform_tools(["whoami"])
        print("ready", json.dumps(await whoami()), flush=True)
        await running.wait_closed()
    print("closed", flush=True)


if os.environ.get("BLOCKING") == "1":  # the blocking entry point, which stops on SIGINT / SIGTERM
    agent().run()
else:
    asyncio.run(main())
`;

/** What the installed package says about itself and its platform tools, as JSON. */
const INTROSPECT = String.raw`
import inspect, json, os, sys, switchboard
from switchboard import tools
print(json.dumps({
    "version": switchboard.__version__,
    "file": switchboard.__file__,
    "typed": os.path.exists(os.path.join(os.path.dirname(switchboard.__file__), "py.typed")),
    "adapterTools": switchboard.ADAPTER_TOOLS,
    "tools": {
        name: {
            "params": [p.name for p in list(inspect.signature(fn).parameters.values())[1:]],
            "optional": [p.name for p in list(inspect.signature(fn).parameters.values())[1:] if p.default is not inspect.Parameter.empty],
            "doc": bool(fn.__doc__),
            "bound": [p.name for p in inspect.signature(switchboard.SwitchboardClient("http://x", "k").platform_tools([name])[0]).parameters.values()],
        }
        for name, fn in tools.TOOLS.items()
    },
}))
`;

/** Checks the wheel's RECORD: every file listed once with its sha256 and size, the RECORD itself unhashed. */
const CHECK_RECORD = String.raw`
import base64, csv, hashlib, io, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    names = wheel.namelist()
    record = [n for n in names if n.endswith(".dist-info/RECORD")][0]
    rows = list(csv.reader(io.StringIO(wheel.read(record).decode())))
    assert sorted(r[0] for r in rows) == sorted(names), "RECORD lists every file"
    for path, digest, size in rows:
        if path == record:
            assert digest == "" and size == ""
            continue
        data = wheel.read(path)
        assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode(), path
        assert int(size) == len(data), path
    print(wheel.read(record.replace("RECORD", "WHEEL")).decode())
    print(wheel.read(record.replace("RECORD", "METADATA")).decode().split("\n\n")[0])
`;

/** The package's files as installed (by pip, from the sdist) and as the wheel holds them: path and sha256 each. */
const INSTALLED_FILES = String.raw`
import csv, io, json, sys, zipfile
from importlib import metadata
installed = sorted([str(f), f.hash.value] for f in metadata.files("switchboard") if f.hash and str(f).startswith("switchboard/"))
with zipfile.ZipFile(sys.argv[1]) as wheel:
    record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
    rows = csv.reader(io.StringIO(wheel.read(record).decode()))
    packed = sorted([path, digest.split("=", 1)[1]] for path, digest, _ in rows if path.startswith("switchboard/"))
print(json.dumps({"installed": installed, "wheel": packed}))
`;

interface PythonRun {
  child: ChildProcess;
  output(): string;
  /** The seqs of the lines `<word> <seq>` it printed, in order. */
  seqs(word: string): number[];
  exited: Promise<number | null>;
}

describe.runIf(ready).each([dialects[0]])("the Python package, installed from its wheel, on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;
  let home: string;
  let project: string;
  let wheel: string;
  let python: string;
  const running = new Set<ChildProcess>();

  /** A person's shell in a folder outside the repository, with a HOME of its own. */
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PIP_NO_INPUT: "1",
    ...extra,
  });

  function start(script: string, extra: Record<string, string>): PythonRun {
    const child = spawn(python, [script], {
      cwd: project,
      env: env({ SWITCHBOARD_URL: server.url, ...extra }) as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => {
        running.delete(child);
        resolve(code);
      }),
    );
    return {
      child,
      output: () => out,
      seqs: (word) => [...out.matchAll(new RegExp(`^${word} (\\d+)`, "gm"))].map((m) => Number(m[1])),
      exited,
    };
  }
  /** The scenario agent as `bot`, its cursors in a file of its own (the same again after a restart). */
  const scenario = (bot: { apiKey: string; handle: string }, extra: Record<string, string> = {}) =>
    start("scenario_agent.py", { SWITCHBOARD_API_KEY: bot.apiKey, CURSORS: `state/${bot.handle}.json`, ...extra });
  async function kill(run: PythonRun): Promise<void> {
    run.child.kill("SIGKILL");
    await run.exited;
  }
  async function agentIn(handle: string) {
    const agent = await createAgent(owner, handle);
    const room = await owner.api.rooms.createChannel.mutate({ name: `${handle}-room`, visibility: "private", memberIds: [agent.id] });
    return { ...agent, handle, roomId: room.id };
  }
  const mention = (roomId: string, handle: string, text: string) =>
    owner.api.messages.send.mutate({ roomId, body: `@${handle} ${text}`, clientMsgId: randomUUID() });
  const thread = (messageId: string) => owner.api.messages.thread.query({ messageId });
  const replies = async (m: MessageView) => (await thread(m.id)).replies.filter((r) => r.kind === "text").map((r) => r.body);

  beforeAll(async () => {
    ({
      server,
      people: { pyowner: owner },
    } = await startWorkspace(dialect, { people: { pyowner: "owner" } }));
    home = mkdtempSync(path.join(tmpdir(), "switchboard-python-"));
    project = path.join(home, "project");
    mkdirSync(project);
    const built = await runProcess(SYSTEM_PYTHON, [path.join(PACKAGE, "build_wheel.py"), path.join(home, "dist")], { cwd: home, env: env() });
    expect(built.code, built.stderr).toBe(0);
    wheel = built.stdout.trim();
    const venv = path.join(home, "venv");
    const made = await runProcess(SYSTEM_PYTHON, ["-m", "venv", "--system-site-packages", venv], { cwd: home, env: env() });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    python = path.join(venv, "bin", "python");
    const installed = await runProcess(python, ["-m", "pip", "install", "--no-deps", "--no-index", wheel], { cwd: project, env: env() });
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    writeFileSync(path.join(project, "scenario_agent.py"), SCENARIO_AGENT);
    copyFileSync(path.join(PACKAGE, "examples/echo_agent.py"), path.join(project, "echo_agent.py"));
  });
  afterAll(async () => {
    for (const child of running) child.kill("SIGKILL");
    await server?.dispose();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("is a pure-Python wheel of pyproject's version, built with the standard library alone, that pip installs from the file; the installed package is typed and has the TypeScript SDK's platform tools", async () => {
    expect(path.basename(wheel)).toBe(`switchboard-${VERSION}-py3-none-any.whl`);
    const record = await runProcess(python, ["-c", CHECK_RECORD, wheel], { cwd: project, env: env() });
    expect(record.code, record.stderr).toBe(0);
    expect(record.stdout).toContain("Root-Is-Purelib: true\nTag: py3-none-any");
    expect(record.stdout).toContain(`Name: switchboard\nVersion: ${VERSION}`);
    expect(record.stdout).toContain("Requires-Dist: python-socketio[asyncio_client]>=5.7");

    const shown = await runProcess(python, ["-c", INTROSPECT], { cwd: project, env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    const info = JSON.parse(shown.stdout) as {
      version: string;
      file: string;
      typed: boolean;
      adapterTools: string[];
      tools: Record<string, { params: string[]; optional: string[]; doc: boolean; bound: string[] }>;
    };
    expect(info).toMatchObject({ version: VERSION, typed: true });
    expect(info.file.startsWith(path.join(home, "venv"))).toBe(true); // the installed copy, not the repository's
    // Each tool as the TypeScript SDK (and the MCP server) defines it: its name, its arguments, which are optional.
    expect(Object.keys(info.tools)).toEqual(Object.keys(TOOL_SPECS));
    for (const [name, spec] of Object.entries(TOOL_SPECS)) {
      const shape = spec.input.shape as Record<string, { isOptional(): boolean }>;
      const tool = info.tools[name];
      expect([name, [...tool.params].sort()]).toEqual([name, Object.keys(shape).sort()]);
      expect([name, [...tool.optional].sort()]).toEqual([
        name,
        Object.keys(shape)
          .filter((k) => shape[k].isOptional())
          .sort(),
      ]);
      expect([name, tool.doc, tool.bound]).toEqual([name, true, tool.params]);
    }
    expect(info.adapterTools).toEqual(
      Object.keys(TOOL_SPECS).filter((n) => !["wait_for_messages", "acknowledge", "report_usage", "report_activity"].includes(n) && !n.startsWith("mark_")),
    );
  });

  it("is what the server hands out: `pip install <server>/install/python` (its source distribution) installs, with no index, the same files as the wheel, which the server serves under its own name too", async () => {
    const listed = (await (await fetch(`${server.url}/install`)).json()) as { data: { python: { path: string; version: string; wheel: string } } };
    expect(listed.data.python).toMatchObject({ path: "/install/python", version: VERSION, wheel: `/install/switchboard-${VERSION}-py3-none-any.whl` });
    const served = await fetch(`${server.url}/install/python`);
    expect([served.status, served.headers.get("content-type"), served.headers.get("content-disposition")]).toEqual([
      200,
      "application/gzip",
      `attachment; filename="switchboard-${VERSION}.tar.gz"`,
    ]);
    const wheelServed = await fetch(`${server.url}${listed.data.python.wheel}`);
    expect([wheelServed.status, wheelServed.headers.get("content-type")]).toEqual([200, "application/zip"]);
    expect((await fetch(`${server.url}/install/switchboard-0.0.0-py3-none-any.whl`)).status).toBe(404);

    const venv = path.join(home, "venv-url");
    const made = await runProcess(SYSTEM_PYTHON, ["-m", "venv", venv], { cwd: home, env: env() });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const installed = await runProcess(path.join(venv, "bin", "python"), ["-m", "pip", "install", "--no-deps", "--no-index", `${server.url}/install/python`], {
      cwd: project,
      env: env(),
    });
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    const files = await runProcess(path.join(venv, "bin", "python"), ["-c", INSTALLED_FILES, wheel], { cwd: project, env: env() });
    expect(files.code, files.stderr).toBe(0);
    const { installed: got, wheel: expected } = JSON.parse(files.stdout) as { installed: string[][]; wheel: string[][] };
    expect(got.length).toBeGreaterThan(10);
    expect(got).toEqual(expected);
  });

  it("runs the example agent: a mention is answered in its thread, once, with a reply id derived from the mention, and receipts; SIGTERM stops it cleanly", async () => {
    const bot = await agentIn("pyexample");
    const run = start("echo_agent.py", { SWITCHBOARD_API_KEY: bot.apiKey, SWITCHBOARD_CURSORS: "state/example.json" });
    const m = await mention(bot.roomId, "pyexample", "hello from the example");
    await waitFor(() => run.seqs("answered \\S+").includes(m.seq), 20_000, `the example's answer (output: ${run.output()})`);
    let { replies: got, root } = await thread(m.id);
    expect(got.map((r) => [r.body, r.clientMsgId, r.author.handle])).toEqual([[`echo: ${m.body}`, `msg:${m.id}:0`, "pyexample"]]);
    await waitFor(
      () => root.receipts.some((r) => r.participantId === bot.id && r.state === "processed"),
      10_000,
      "the processed receipt",
      async () => void ({ replies: got, root } = await thread(m.id)),
    );
    expect(got).toHaveLength(1);
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toMatch(/Traceback/);
  });

  it("runs the agent the browser shows beside a new key, as it is shown: a mention is answered in its thread", async () => {
    const bot = await agentIn("pyshown");
    writeFileSync(path.join(project, "shown_agent.py"), PYTHON_AGENT);
    const run = start("shown_agent.py", { SWITCHBOARD_API_KEY: bot.apiKey });
    const m = await mention(bot.roomId, "pyshown", "hello from the page");
    let got: string[] = [];
    await waitFor(
      () => got.length > 0,
      20_000,
      `the shown agent's answer (output: ${run.output()})`,
      async () => void (got = await replies(m)),
    );
    expect(got).toEqual([`echo: ${m.body}`]);
    run.child.kill("SIGTERM");
    await run.exited;
  });

  it("answers a burst once each, in order; killed mid-message and restarted, answers every mention once, in order: the one it was handling, and those sent while it was down", async () => {
    const bot = await agentIn("pykill");
    let run = scenario(bot, { SLOW: "1" });
    await waitFor(() => run.output().includes("ready"), 20_000, `the agent (output: ${run.output()})`);
    expect(run.output()).toMatch(/^ready \{.*"handle": "@pykill"/m); // a platform tool, over the socket

    // A burst, arriving together: each handled once, in order.
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => mention(bot.roomId, "pykill", `burst ${i}`)));
    const first = await mention(bot.roomId, "pykill", "hello");
    await waitFor(() => run.seqs("handled").includes(first.seq), 20_000, `the first mentions (output: ${run.output()})`);
    expect(run.seqs("handled")).toEqual([...burst, first].map((m) => m.seq).sort((a, b) => a - b));
    // Replied, then killed before it finished: the message was neither acknowledged nor its cursor moved.
    const slow = await mention(bot.roomId, "pykill", "slow one");
    await waitFor(() => run.seqs("replied").includes(slow.seq), 20_000, `the slow mention's reply (output: ${run.output()})`);
    await kill(run);
    const missed = [await mention(bot.roomId, "pykill", "while you were away 1"), await mention(bot.roomId, "pykill", "while you were away 2")];

    run = scenario(bot);
    await waitFor(() => run.seqs("handled").includes(missed[1].seq), 20_000, `the missed mentions (output: ${run.output()})`);
    const after = await mention(bot.roomId, "pykill", "after the restart");
    await waitFor(() => run.seqs("handled").includes(after.seq), 20_000, `the mention after the restart (output: ${run.output()})`);
    expect(run.seqs("handled")).toEqual([slow, ...missed, after].map((m) => m.seq));
    expect(run.output()).toContain(`handling ${slow.seq} replayed`);
    for (const m of [...burst, first, slow, ...missed, after]) expect(await replies(m)).toEqual([`echo: ${m.body}`]);
    expect((await thread(slow.id)).replies[0].clientMsgId).toBe(`msg:${slow.id}:0`);
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toMatch(/Traceback/);
    // Its cursors file is the TypeScript SDK's: either SDK resumes from it.
    expect(new FileCursorStore(path.join(project, "state/pykill.json")).get(bot.roomId)).toBeGreaterThanOrEqual(after.seq);
  });

  it("run() stops on SIGTERM once the message in progress is done, and at once on a second, leaving that message to the next run", async () => {
    const bot = await agentIn("pystop");
    let run = scenario(bot, { SLOW: "1", BLOCKING: "1" });
    const slow = await mention(bot.roomId, "pystop", "slow to stop");
    await waitFor(() => run.seqs("replied").includes(slow.seq), 20_000, `the reply (output: ${run.output()})`);
    run.child.kill("SIGTERM");
    await waitFor(() => run.output().includes("SIGTERM: finishing the message in progress"), 10_000, `the first SIGTERM (output: ${run.output()})`);
    expect(run.child.exitCode).toBeNull(); // the message is not done
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.seqs("handled")).toEqual([]);

    run = scenario(bot, { BLOCKING: "1" });
    await waitFor(() => run.seqs("handled").includes(slow.seq), 20_000, `the message again (output: ${run.output()})`);
    expect(await replies(slow)).toEqual([`echo: ${slow.body}`]);
    run.child.kill("SIGINT");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toMatch(/Traceback/);
  });

  it("asks its owner and waits; killed while waiting, restarted, it gets the answer given meanwhile from the same question, and answers once", async () => {
    const bot = await agentIn("pyask");
    let run = scenario(bot);
    const m = await mention(bot.roomId, "pyask", "ask me");
    let question: { id: string; status: string; threadRootId: string | null } | undefined;
    await waitFor(
      () => question !== undefined,
      20_000,
      `the agent's question (output: ${run.output()})`,
      async () => {
        question = (await owner.api.questions.list.query({ for: "me" })).find((q) => q.prompt === "Ship it?" && q.asker.handle === "pyask");
      },
    );
    expect(question!.threadRootId).toBe(m.id); // asked in the mention's thread
    await kill(run);
    await owner.api.questions.answer.mutate({ questionId: question!.id, answer: { approved: true } });

    run = scenario(bot);
    await waitFor(() => run.seqs("handled").includes(m.seq), 20_000, `the answer after the restart (output: ${run.output()})`);
    const { replies: got } = await thread(m.id);
    expect(got.filter((r) => r.kind === "question").map((r) => r.clientMsgId)).toEqual([`msg:${m.id}:0`]);
    expect(got.filter((r) => r.kind === "text").map((r) => [r.body, r.clientMsgId])).toEqual([["decided: answered approved=True", `msg:${m.id}:1`]]);
    expect((await owner.api.questions.list.query({ for: "me", status: "all" })).filter((q) => q.asker.handle === "pyask")).toHaveLength(1);
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
  });

  it("reports usage for the person who asked, a work status kept alive until it stops, tasks and files on its runtime binding; the person reads them back", async () => {
    const bot = await agentIn("pywork");
    const run = scenario(bot);
    const m = await mention(bot.roomId, "pywork", "do work");
    await waitFor(() => run.seqs("handled").includes(m.seq), 20_000, `the work (output: ${run.output()})`);
    expect(await replies(m)).toEqual(["on it"]);

    const today = new Date().toISOString().slice(0, 10);
    const usage = await owner.api.usage.overview.query({ from: today, to: today, agentId: bot.id });
    expect(usage.totals).toMatchObject({ calls: 1, inputTokens: 1200, outputTokens: 300, cachedTokens: 200 });
    expect(usage.byRequester.map((r) => r.id)).toEqual([owner.participantId]); // the mention's author drove it

    const board = async () => (await owner.api.work.board.query({ sinceHours: 24 })).agents.find((a) => a.agent.id === bot.id)!;
    const [binding] = await owner.api.bindings.ofRoom.query({ roomId: bot.roomId, includeClosed: false });
    expect(binding).toMatchObject({ runtime: "py-test", externalId: `session-${m.seq}`, lastSeq: m.seq, status: "idle", turns: 1 });
    const during = await board();
    expect(during.status).toMatchObject({ state: "working", text: "Crunching the numbers" });
    expect(during.tasks.map((t) => [t.title, t.status, t.bindingId])).toEqual([["Crunch the numbers", "in_progress", binding.id]]);
    expect(during.files.map((f) => [f.path, f.operations, f.linesAdded])).toEqual([["src/crunch.py", ["edit"], 3]]);

    // Closed on SIGTERM: the status it kept alive goes idle.
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain("closed");
    expect((await board()).status.state).toBe("idle");
  });

  /** The turn on `messageId` as the person reads it (tRPC `turns.forRoom`), with its steps. */
  async function turnOn(roomId: string, messageId: string) {
    return (await owner.api.turns.forRoom.query({ roomId })).turns.find((t) => t.messageId === messageId);
  }

  it("shows each message's turn live: the plan, a tool call and notes the handler reports through ctx.activity, in order, and its tokens; it ends done when the handler returns", async () => {
    const bot = await agentIn("pywatched");
    const other = await owner.api.rooms.createChannel.mutate({ name: "pywatched-other", visibility: "private", memberIds: [bot.id] });
    const run = scenario(bot);
    const m = await mention(bot.roomId, "pywatched", "show your plan");
    let turn: Awaited<ReturnType<typeof turnOn>>;
    // Seen while the handler waits (for "go on").
    await waitFor(
      () => turn?.steps.length === 62 && turn.tokens.input === 1000,
      20_000,
      `the turn's steps, live (output: ${run.output()})`,
      async () => void (turn = await turnOn(bot.roomId, m.id)),
    );
    expect(turn!).toMatchObject({
      state: "running",
      runtime: "python",
      agent: { id: bot.id, handle: "pywatched" },
      tokens: { input: 1000, output: 50 },
      costUsd: 0.002,
    });
    expect(turn!.steps.slice(0, 3).map((s) => [s.kind, s.title, s.status])).toEqual([
      ["plan", "Plan: 1 of 2 done", "done"],
      ["tool", "search_docs refund policy", "done"],
      ["note", "step 0", "done"],
    ]);
    expect(turn!.steps[0].items).toEqual([
      { title: "Read the question", status: "completed" },
      { title: "Answer it", status: "in_progress" },
    ]);
    expect(turn!.steps[1].detail).toContain("Refunds within 30 days");
    // Sent in batches of 50 at most, in the order reported.
    expect(turn!.steps.slice(2).map((s) => s.title)).toEqual(Array.from({ length: 60 }, (_, i) => `step ${i}`));
    // Its work status says what it answers while the turn runs, as the TypeScript SDK's Agent's does.
    const statusOf = async () => (await owner.api.work.board.query({ sinceHours: 1 })).agents.find((a) => a.agent.id === bot.id)!.status;
    expect(await statusOf()).toMatchObject({
      state: "working",
      text: `Answering @${owner.handle} in #${(await owner.api.rooms.get.query({ roomId: bot.roomId })).name}`,
    });

    await mention(other.id, "pywatched", "go on");
    await waitFor(
      () => turn?.state === "done",
      20_000,
      `the turn's end (output: ${run.output()})`,
      async () => void (turn = await turnOn(bot.roomId, m.id)),
    );
    expect(turn!).toMatchObject({ tokens: { input: 1000, output: 50 }, costUsd: 0.002, endedAt: expect.any(String), error: null });
    expect(await replies(m)).toEqual(["planned"]);
    let status = await statusOf();
    await waitFor(
      () => status.state === "idle",
      10_000,
      "idle once no turn runs",
      async () => void (status = await statusOf()),
    );
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toMatch(/Traceback/);
  });

  it("Stop from the room cancels a handler that is blocked: the turn ends stopped, the receipt fails 'stopped by @…', its binding keeps the session; a reply sent meanwhile is noted on the turn and answered next", async () => {
    const bot = await agentIn("pystopped");
    const run = scenario(bot);
    const m = await mention(bot.roomId, "pystopped", "block until stopped");
    let turn: Awaited<ReturnType<typeof turnOn>>;
    const refresh = async () => void (turn = await turnOn(bot.roomId, m.id));
    await waitFor(() => turn?.steps[0]?.status === "running", 20_000, `the blocked turn (output: ${run.output()})`, refresh);
    expect(turn!.steps.map((s) => [s.kind, s.title])).toEqual([["tool", "wait_for_ci sleep 60"]]);

    // A person's reply in its thread while it runs: waits behind it, and the turn says so.
    const reply = await owner.api.messages.send.mutate({ roomId: bot.roomId, body: "any news?", threadRootId: m.id, clientMsgId: randomUUID() });
    await waitFor(() => turn?.steps.length === 2, 10_000, `the reply's note (output: ${run.output()})`, refresh);
    expect(turn!.steps[1]).toMatchObject({ kind: "note", title: "@pyowner replied while it works: answered next turn" });

    await owner.api.turns.stop.mutate({ turnId: turn!.id });
    await waitFor(() => turn?.state === "stopped", 10_000, `the turn stopped (output: ${run.output()})`, refresh);
    expect(turn!).toMatchObject({ stoppedBy: { handle: "pyowner" }, error: null });
    expect(turn!.steps[0].status).toBe("failed"); // the tool call it was in did not finish
    expect(run.output()).toContain(`cancelled ${m.seq} True pyowner`); // cancelled, and ctx.stopped said by whom
    let root: Awaited<ReturnType<typeof thread>>["root"] | undefined;
    await waitFor(
      () => root?.receipts.some((r) => r.participantId === bot.id && r.state === "failed") ?? false,
      10_000,
      "the failed receipt",
      async () => void ({ root } = await thread(m.id)),
    );
    expect(root!.receipts.find((r) => r.participantId === bot.id)?.reason).toBe("stopped by @pyowner");
    // Its runtime binding: the message done with, the session kept for the next one.
    const [binding] = await owner.api.bindings.ofRoom.query({ roomId: bot.roomId, includeClosed: false });
    expect(binding).toMatchObject({ externalId: `session-${m.seq}`, lastSeq: m.seq, status: "idle", lastError: null });

    // The next message, the reply, is answered: a turn of its own, done.
    await waitFor(() => run.seqs("handled").includes(reply.seq), 20_000, `the reply answered (output: ${run.output()})`);
    expect(run.seqs("handled")).toEqual([reply.seq]);
    expect((await replies(m)).filter((body) => body.startsWith("echo"))).toEqual(["echo: any news?"]);
    let next: Awaited<ReturnType<typeof turnOn>>;
    await waitFor(
      () => next?.state === "done",
      10_000,
      "the next turn",
      async () => void (next = await turnOn(bot.roomId, reply.id)),
    );
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toMatch(/Traceback/);
  });

  it("carries on without turns on a server that does not know them: the handler runs with a reporter that reports nothing, and turn:start is not asked again", async () => {
    const script = String.raw`
import asyncio, switchboard
from switchboard.turns import TurnRunner

class OlderServer:  # answers turn:start as a server before turns does
    me = {"id": "bot"}
    asked = 0
    def on(self, event, listener):
        pass
    async def start_turn(self, message_id, runtime=None):
        self.asked += 1
        raise switchboard.SwitchboardError("UNKNOWN_EVENT", "Unknown event: turn:start")

async def main():
    client, seen = OlderServer(), []
    async def handle(message, ctx):
        ctx.activity.plan([{"title": "a", "status": "completed"}])
        ctx.activity.tool_started("k", "tool", {"path": "x"})
        ctx.activity.note("n")
        seen.append([message["id"], type(ctx.activity).__name__])
    runner = TurnRunner(client, handle, "python")
    for n in (1, 2):
        message = {"id": f"m{n}", "roomId": "r", "threadRootId": None, "kind": "text", "author": {"id": "p", "kind": "human", "handle": "p"}}
        await runner(message, switchboard.MessageContext(client, message, None, True, False))
    print(client.asked, seen)

asyncio.run(main())
`;
    const ran = await runProcess(python, ["-c", script], { cwd: project, env: env() });
    expect([ran.code, ran.stdout.trim(), ran.stderr]).toEqual([0, "1 [['m1', 'ActivityReporter'], ['m2', 'ActivityReporter']]", ""]);
  });

  it("registers an agent with a person's onboarding token; a key that is not one is refused at once, with the server's code", async () => {
    const { token } = await owner.api.agents.createOnboardingToken.mutate({ label: "python", expiresInDays: 1 });
    const script = [
      "import asyncio, os, switchboard",
      "async def main():",
      "    made = await switchboard.SwitchboardClient.register(os.environ['SWITCHBOARD_URL'], os.environ['TOKEN'], 'pyreg', 'Pyreg')",
      "    print('registered', made['agent']['handle'], made['apiKey'][:3])",
      "    try:",
      "        await switchboard.Agent(os.environ['SWITCHBOARD_URL'], 'sb_not_a_key', lambda m, c: None).start()",
      "    except switchboard.SwitchboardError as error:",
      "        print('refused', error.code, error.retryable)",
      "asyncio.run(main())",
    ].join("\n");
    const ran = await runProcess(python, ["-c", script], { cwd: project, env: env({ SWITCHBOARD_URL: server.url, TOKEN: token }) });
    expect([ran.code, ran.stdout.trim().split("\n")], ran.stderr).toEqual([0, ["registered pyreg sb_", "refused UNAUTHENTICATED False"]]);
    expect(ran.stderr).toBe("");
    expect((await owner.api.agents.mine.query()).map((a) => a.handle)).toContain("pyreg");
  });

  it("reconnects by itself when its server restarts, and answers what is sent then, once", async () => {
    const { server: own, people } = await startWorkspace(dialect, { people: { pyrestarter: "owner" }, ownServer: true });
    const person = people.pyrestarter;
    try {
      const made = await createAgent(person, "pyback");
      const roomId = (await person.api.rooms.createChannel.mutate({ name: "pyback", visibility: "private", memberIds: [made.id] })).id;
      const say = (text: string) => person.api.messages.send.mutate({ roomId, body: `@pyback ${text}`, clientMsgId: randomUUID() });
      const run = scenario({ apiKey: made.apiKey, handle: "pyback" }, { SWITCHBOARD_URL: own.url });
      const before = await say("before the restart");
      await waitFor(() => run.seqs("handled").includes(before.seq), 20_000, `the first mention (output: ${run.output()})`);
      await own.restart();
      const after = await say("after the restart");
      await waitFor(() => run.seqs("handled").includes(after.seq), 30_000, `the mention after the restart (output: ${run.output()})`);
      expect(run.seqs("handled")).toEqual([before.seq, after.seq]);
      for (const m of [before, after]) {
        const { replies } = await person.api.messages.thread.query({ messageId: m.id });
        expect(replies.map((r) => r.body)).toEqual([`echo: ${m.body}`]);
      }
      run.child.kill("SIGTERM");
      expect(await run.exited, run.output()).toBe(0);
      expect(run.output()).not.toMatch(/Traceback/);
    } finally {
      await own.dispose();
    }
  });
});
