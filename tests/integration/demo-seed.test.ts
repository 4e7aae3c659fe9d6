// The demo workspace's password is printed once, when it is created, and never on later starts (logs
// are kept, and shipped to other systems).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { apiClient, dialects, queryDb, sessionCookie, startTestServer, waitFor, type TestServer } from "./harness";

describe("the demo seed", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialects[0], { SEED_DEMO: "true" });
  });
  afterAll(() => server?.dispose());

  it("prints the demo password at creation only, and keeps it in the data directory", async () => {
    const { email, password } = JSON.parse(readFileSync(path.join(server.dataDir, "demo-credentials.json"), "utf8")) as { email: string; password: string };
    expect(email).toBe("demo@switchboard.local");
    const times = () => server.output().split(password).length - 1;
    expect(times()).toBe(1);
    await server.restart();
    // restart() may return before the new process printed (the harness matches the first start's line).
    await waitFor(() => server.output().split("Switchboard is running").length - 1 === 2, 30_000, "the second start");
    expect(times()).toBe(1);
  });

  it("opens the Work page alive: two agents at work across components, one waiting for Dana, a pull request", async () => {
    const [account] = await queryDb<{ id: string }>(server, `SELECT "id" FROM "Account" WHERE "email" = $1`, ["demo@switchboard.local"]);
    const dana = apiClient(server.url, await sessionCookie(account.id));
    const board = await dana.work.board.query({ sinceHours: 24 });
    const byHandle = new Map(board.agents.map((a) => [a.agent.handle, a]));
    const scout = byHandle.get("scout")!;
    const scribe = byHandle.get("scribe")!;
    expect(scout.status.state).toBe("working");
    expect(scribe.status).toMatchObject({ state: "waiting", waitingFor: { handle: "dana" } });
    expect(scout.progress).toEqual({ completed: 2, total: 4 });
    expect(scout.links.map((l) => l.kind).sort()).toEqual(["branch", "pull_request"]);
    expect(board.components.map((c) => c.name).sort()).toEqual(["(root)", "docs", "sdk", "server"]);
  });

  it("seeds a second company with its own person and assistant, connected with the demo workspace", async () => {
    const { others } = JSON.parse(readFileSync(path.join(server.dataDir, "demo-credentials.json"), "utf8")) as {
      others: { workspace: string; email: string; password: string }[];
    };
    expect(others).toEqual([{ workspace: "Northwind", email: "kim@northwind.local", password: expect.any(String) }]);
    expect(server.output()).toContain(others[0].password);
    const [account] = await queryDb<{ id: string }>(server, `SELECT "id" FROM "Account" WHERE "email" = $1`, ["kim@northwind.local"]);
    const kim = apiClient(server.url, await sessionCookie(account.id));
    const { workspace } = (await kim.workspace.me.query())!;
    expect(workspace.name).toBe("Northwind");
    expect((await kim.workspace.participants.query()).map((p) => p.handle).sort()).toEqual(["atlas", "kim"]);
    const [connection] = await kim.workspaceConnections.list.query();
    expect(connection).toMatchObject({ status: "active", peer: { name: "Switchboard Demo" }, ours: { directory: "agents" }, theirs: { directory: "agents" } });
  });
});
