// The Codex adapter driven turn by turn, with the real @openai/codex-sdk and Codex CLI, offline: the
// model is a script on loopback (tests/support/scripted-openai.ts) and CODEX_HOME a temp directory.
// The first tests need no Switchboard server; the last ones start one and let the model post
// through Switchboard's MCP server, as the adapter attaches it and as `switchboard connect` wires it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codex, type CodexAdapterOptions } from "@switchboard/sdk/adapters/codex";
import { ResumeFailed, type BindingView, type RuntimeAdapter, type TurnInput } from "@switchboard/sdk/runtime";
import { NO_ACTIVITY } from "@switchboard/sdk/turn-activity";
import {
  callCustomTool,
  callTool,
  describeItem,
  lastToolOutput,
  say,
  searchTools,
  searchedTools,
  startScriptedOpenAI,
  type ResponsesRequest,
  type ScriptedOpenAI,
} from "../support/scripted-openai";
import { CLI, createAgent, runProcess, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";
import { sampleBinding } from "../support/binding-view";

const MODEL = "gpt-5.5";

let model: ScriptedOpenAI;
let home: string;
const dirs: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  model = await startScriptedOpenAI();
  home = tempDir("codex-home-");
  // Nothing but the scripted model is reached: no plugin sync (GitHub, chatgpt.com), no analytics.
  writeFileSync(path.join(home, "config.toml"), "[analytics]\nenabled = false\n\n[features]\nplugins = false\n");
});
afterAll(async () => {
  await model.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An adapter on the scripted model and the test's CODEX_HOME, with nothing from the real environment. */
function adapter(extra: CodexAdapterOptions = {}) {
  return codex({
    model: MODEL,
    baseUrl: model.baseUrl,
    apiKey: "sk-scripted",
    codexHome: home,
    workingDirectory: tempDir("codex-work-"),
    skipGitRepoCheck: true,
    ...extra,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...extra.env },
  });
}

const binding = (externalId: string | null): BindingView => sampleBinding({ runtime: "codex", externalId });

/** What a turn reported to the Work page (`TurnInput.work`). */
interface Reported {
  tasks: Parameters<TurnInput["work"]["tasks"]>[0][];
  files: Parameters<TurnInput["work"]["files"]>[0];
}

/** A turn's input; `sessions` collects what onSession was called with, `reported` its work reports. */
function turnInput(
  externalId: string | null,
  prompt: string,
  sessions: string[] = [],
  reported: Reported = { tasks: [], files: [] },
  watched: { lines: string[]; signal?: AbortSignal } = { lines: [] },
): TurnInput {
  return {
    binding: binding(externalId),
    messages: [],
    history: [],
    prompt,
    me: {
      id: "agent-1",
      kind: "agent",
      handle: "coder",
      displayName: "Coder",
      status: "active",
      description: "",
      framework: "codex",
      capabilities: [],
      ownerId: null,
      statusEmoji: "",
      statusText: "",
      statusUntil: null,
      avatarUrl: null,
    },
    room: {
      room: {
        id: "room-1",
        kind: "channel",
        visibility: "private",
        name: "ops",
        title: "#ops",
        topic: "",
        lastSeq: 0,
        memberCount: 2,
        archivedAt: null,
        shared: null,
      },
      deliveryMode: "all",
      deliveredSeq: 0,
      readSeq: 0,
      processedSeq: 0,
    },
    tools: [],
    signal: watched.signal ?? new AbortController().signal,
    steering: { listen: () => undefined },
    activity: {
      ...NO_ACTIVITY,
      toolStarted: (_key, name, input) => void watched.lines.push(`started ${name} ${JSON.stringify(input)}`),
      toolEnded: (_key, result, failed) => void watched.lines.push(`${failed ? "failed" : "ended"} ${String(result).trim()}`),
    },
    onSession: async (id) => void sessions.push(id),
    work: {
      tasks: async (tasks) => void reported.tasks.push(tasks),
      files: async (files) => void reported.files.push(...files),
    },
  };
}

const lines = (request: ResponsesRequest) => request.input.map(describeItem);

function rolloutOf(threadId: string): string | undefined {
  const sessions = path.join(home, "sessions");
  const name = readdirSync(sessions, { recursive: true, encoding: "utf8" }).find((n) => n.endsWith(`-${threadId}.jsonl`));
  return name && path.join(sessions, name);
}

describe("Codex adapter against a scripted model", () => {
  let threadId = "";
  let firstRequest: ResponsesRequest;
  let codexAdapter: RuntimeAdapter;
  beforeAll(() => {
    codexAdapter = adapter();
  });

  it("where() names the runner, host, working directory and Codex's configuration", () => {
    const where = codexAdapter.where!();
    expect(codexAdapter.runtime).toBe("codex");
    expect(where.workdir).toMatch(/codex-work-/);
    expect(where.runner).toBe(where.host);
    expect(where.config).toEqual({ model: MODEL, sandboxMode: "read-only", approvalPolicy: "never", switchboardMcp: false });
    expect(adapter({ runner: "ci-1", switchboardUrl: "http://127.0.0.1:1" }).where!()).toMatchObject({ runner: "ci-1", config: { switchboardMcp: true } });
  });

  it("a first turn starts a thread, reports its id before the turn ends, and returns the reply and the turn's usage", async () => {
    model.script(say("Hello, Dana.", { input: 1200, cached: 200, output: 34 }));
    const sessions: string[] = [];
    const result = await codexAdapter.turn(turnInput(null, "Dana: hello @coder", sessions));

    expect(result.externalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sessions).toEqual([result.externalId]);
    expect(result.reply).toBe("Hello, Dana.");
    expect(result.usage).toEqual([{ model: MODEL, inputTokens: 1200, outputTokens: 34, cachedTokens: 200 }]);
    expect(result.status).toBe("idle");
    expect(result.config).toEqual(codexAdapter.where!().config);
    expect(rolloutOf(result.externalId)).toBeDefined();

    // The CLI asked the scripted model once, over HTTP after a refused WebSocket, with the prompt last.
    const [request] = model.responses();
    expect(model.requests.every((r) => r.path === "/v1/responses")).toBe(true);
    expect(model.requests.some((r) => r.websocket)).toBe(true);
    expect(request.model).toBe(MODEL);
    expect(lines(request).at(-1)).toBe("user: Dana: hello @coder");
    threadId = result.externalId;
    firstRequest = request;
  });

  it("the next turn resumes the same thread: the model sees the first turn's items and only the new prompt", async () => {
    expect(threadId).not.toBe("");
    model.script(say("Deploying now.", { input: 1500, cached: 1100, output: 12 }));
    const sessions: string[] = [];
    const result = await codexAdapter.turn(turnInput(threadId, "Dana: deploy please", sessions));

    expect(result.externalId).toBe(threadId);
    expect(sessions).toEqual([]); // the id was known before the turn
    expect(result.reply).toBe("Deploying now.");
    // This turn's tokens only, though the CLI reports the thread's running total.
    expect(result.usage).toEqual([{ model: MODEL, inputTokens: 1500, outputTokens: 12, cachedTokens: 1100 }]);

    const second = model.responses()[1];
    expect(lines(second)).toEqual([...lines(firstRequest), "assistant: Hello, Dana.", "user: Dana: deploy please"]);
    const resumedRequest = model.requests.filter((r) => r.path === "/v1/responses" && !r.websocket).at(-1)!;
    expect(String(resumedRequest.headers["x-codex-turn-metadata"])).toContain('"history_initialization":"cold_resume"');
  });

  it("without a configured model, usage names the model Codex chose (its rollout says which)", async () => {
    model.script(say("Hi.", { input: 50, output: 2 }));
    const result = await adapter({ model: undefined }).turn(turnInput(null, "Dana: hi"));
    const chosen = model.responses().at(-1)!.model;
    expect(chosen).toMatch(/\S/);
    expect(result.usage).toEqual([{ model: chosen, inputTokens: 50, outputTokens: 2, cachedTokens: 0 }]);
  });

  it("resuming a thread whose rollout file was deleted throws ResumeFailed, before any model call", async () => {
    model.script(say("A thread to lose."));
    const { externalId } = await codexAdapter.turn(turnInput(null, "Dana: remember this"));
    rmSync(rolloutOf(externalId)!);
    const asked = model.responses().length;

    const failure = await codexAdapter.turn(turnInput(externalId, "Dana: still there?")).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResumeFailed);
    expect(String((failure as ResumeFailed).cause)).toContain(`no rollout found for thread id ${externalId}`);
    expect(model.responses().length).toBe(asked);
  });

  it("an id Codex would not take as a thread id (it would start a new thread) is a failed resume too", async () => {
    const failure = await codexAdapter.turn(turnInput("not-a-thread-id", "Dana: hello?")).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResumeFailed);
    expect((failure as Error).message).toMatch(/did not resume thread not-a-thread-id/);
  });

  it("shell commands run in the sandbox and an escalation is refused at once: nothing waits for an approval; the files it patched and the commands it ran are reported as work", async () => {
    const workdir = tempDir("codex-shell-");
    const shell = adapter({ sandboxMode: "workspace-write", workingDirectory: workdir });
    const started = Date.now();
    const reported: Reported = { tasks: [], files: [] };
    model.script(
      callCustomTool("apply_patch", "*** Begin Patch\n*** Add File: plan.md\n+check the disk\n*** End Patch\n", { input: 100, output: 5 }),
      callTool("exec_command", { cmd: "echo checked > note.txt && cat note.txt" }, { usage: { input: 300, output: 20 } }),
      callTool(
        "exec_command",
        { cmd: "touch /etc/codex-was-here", sandbox_permissions: "require_escalated", justification: "May I?" },
        { usage: { input: 400, cached: 300, output: 20 } },
      ),
      (request) => say(`Refused: ${lastToolOutput(request).includes("approval policy is Never")}`, { input: 500, cached: 400, output: 5 })(request),
    );
    const watched = { lines: [] as string[] };
    const result = await shell.turn(turnInput(null, "Dana: check the disk", [], reported, watched));
    // The room watched the commands run, with their output.
    expect(watched.lines).toContainEqual(expect.stringMatching(/^started shell \{"command":".*echo checked > note\.txt && cat note\.txt.*"\}$/));
    expect(watched.lines).toContain("ended checked");

    expect(Date.now() - started).toBeLessThan(20_000);
    expect(readFileSync(path.join(workdir, "note.txt"), "utf8")).toBe("checked\n");
    expect(existsSync("/etc/codex-was-here")).toBe(false);
    expect(result.reply).toBe("Refused: true");
    const [, second, third] = model.responses().slice(-3);
    expect(lastToolOutput(second)).toMatch(/Process exited with code 0[\s\S]*checked/);
    expect(lastToolOutput(third)).toContain("you cannot ask for escalated permissions if the approval policy is Never");
    // One usage entry for the turn: the four model calls added up.
    expect(result.usage).toEqual([{ model: MODEL, inputTokens: 1300, outputTokens: 50, cachedTokens: 700 }]);
    // What it changed and ran, reported as the binding's work: the patch's file, and the commands.
    expect(readFileSync(path.join(workdir, "plan.md"), "utf8")).toBe("check the disk\n");
    expect(reported.files).toContainEqual({ path: "plan.md", operation: "create" });
    expect(
      reported.files
        .filter((f) => f.operation === "run")
        .map((f) => f.path)
        .join("\n"),
    ).toContain("echo checked > note.txt && cat note.txt");
    expect(model.pending()).toBe(0);
  });
});

describe("Codex adapter, stopped", () => {
  it("a person's Stop (the turn's signal) ends the run while the model is still answering; the next turn resumes the thread", async () => {
    const stop = new AbortController();
    const sessions: string[] = [];
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    model.script(async (request) => {
      asked();
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      return say("too late")(request);
    });
    const codexAdapter = adapter();
    const turn = codexAdapter.turn(turnInput(null, "Dana: think about it", sessions, undefined, { lines: [], signal: stop.signal }));
    await waiting;
    const t0 = performance.now();
    stop.abort(new Error("stopped by @dana"));
    await expect(turn).rejects.toThrow();
    console.log(`Codex turn stopped ${Math.round(performance.now() - t0)} ms after its signal`);
    expect(sessions).toHaveLength(1);

    model.script(say("Back on it."));
    const next = await codexAdapter.turn(turnInput(sessions[0], "Dana: go on"));
    expect(next.externalId).toBe(sessions[0]);
    expect(next.reply).toBe("Back on it.");
  });
});

describe("Codex adapter with Switchboard's MCP server attached", () => {
  let server: TestServer;
  let owner: Person;
  let agent: { id: string; apiKey: string };
  let roomId: string;

  beforeAll(async () => {
    ({
      server,
      people: { dana: owner },
    } = await startWorkspace("sqlite", { people: { dana: "owner" } }));
    agent = await createAgent(owner, "coder", { framework: "codex" });
    roomId = (await owner.api.rooms.createChannel.mutate({ name: "ops", visibility: "private", memberIds: [agent.id] })).id;
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it("the model calls send_message through Codex's MCP client and the message lands in the room", async () => {
    const attached = adapter({ switchboardUrl: server.url, env: { SWITCHBOARD_API_KEY: agent.apiKey } });
    let found: string[] = [];
    model.script(
      // As a model Codex knows does: its MCP tools are deferred, found with tool_search first.
      searchTools("post a message to a room"),
      (request) => {
        found = searchedTools(request);
        return { call: { namespace: "mcp__switchboard", name: "send_message", args: { room: "#ops", text: "Deploy finished", client_id: "codex-deploy-1" } } };
      },
      (request) => say(`Posted: ${JSON.parse(lastToolOutput(request).split("Output:\n")[1]).message.seq}`)(request),
    );
    const result = await attached.turn(turnInput(null, "Dana: tell #ops when the deploy is done"));

    expect(found).toContain("mcp__switchboard.send_message");
    const { messages } = await owner.api.messages.history.query({ roomId });
    const posted = messages.find((m) => m.body === "Deploy finished");
    expect(posted).toMatchObject({ author: { id: agent.id, handle: "coder" }, clientMsgId: "codex-deploy-1" });
    expect(result.reply).toBe(`Posted: ${posted!.seq}`);
  });

  it("after `switchboard connect --client codex`, the codex command starts with Switchboard's tools: nothing exported, nothing to approve", async () => {
    // A person's machine: a HOME of its own, Codex's config there, the person's one command in a project.
    const root = tempDir("codex-connect-");
    const [project, codexHome] = [path.join(root, "project"), path.join(root, ".codex")];
    for (const dir of [project, codexHome]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(codexHome, "config.toml"), "[analytics]\nenabled = false\n\n[features]\nplugins = false\n");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, CODEX_HOME: codexHome };
    const { token } = await owner.api.agents.createOnboardingToken.mutate({ label: "codex", expiresInDays: 1 });
    const connected = await runProcess(
      process.execPath,
      [...CLI, "connect", "--url", server.url, "--token", token, "--client", "codex", "--handle", "wired-codex"],
      {
        cwd: project,
        env,
      },
    );
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).not.toContain("export SWITCHBOARD_API_KEY");

    // Then `codex` itself, in the project, with no SWITCHBOARD_* in its environment.
    let found: string[] = [];
    model.script(
      searchTools("who am I on switchboard"),
      (request) => ((found = searchedTools(request)), { call: { namespace: "mcp__switchboard", name: "whoami", args: {} } }),
      (request) => say(lastToolOutput(request))(request),
    );
    const codexCli = path.join(import.meta.dirname, "../../node_modules/.bin/codex");
    const ran = await runProcess(
      codexCli,
      ["exec", "--skip-git-repo-check", "--model", MODEL, "-c", `openai_base_url="${model.baseUrl}"`, "Which agent are you on Switchboard?"],
      { cwd: project, env: { ...env, CODEX_API_KEY: "sk-scripted" } },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(found).toContain("mcp__switchboard.whoami");
    // The tool's answer, as Codex handed it to the model: the agent connect registered.
    expect(ran.stdout).toContain('"handle":"@wired-codex"');
  });

  it("without the agent's key in the CLI's environment the turn fails before reaching the model", async () => {
    const keyless = adapter({ switchboardUrl: server.url });
    const asked = model.responses().length;
    await expect(keyless.turn(turnInput(null, "Dana: hi"))).rejects.toThrow(/SWITCHBOARD_API_KEY is not set/);
    expect(model.responses().length).toBe(asked);
  });
});
