// The Inbox's Alerts (tRPC `notifications.alerts`): each person is told of their own agents' budgets
// and suspensions and of the connection requests they made, in words, newest first; never of someone
// else's agents, nor of a decision they made themselves.
import { afterAll, describe, expect, it } from "vitest";
import { closeAgentClients, closeSockets, connectedAgent, createAgent, dialects, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

describe.each(dialects)("alerts on %s", (dialect) => {
  let server: TestServer;
  afterAll(async () => {
    await closeAgentClients();
    closeSockets();
  });

  it("says what happened to a person's budget, agents and requests, to them alone", async () => {
    let dana: Person, bea: Person;
    ({
      server,
      people: { dana, bea },
    } = await startWorkspace(dialect, { people: { dana: "owner", bea: "member" } }));
    expect(await dana.api.notifications.alerts.query()).toEqual([]);

    // Dana's agent spends past 80% of a $1 daily budget, then past all of it (which suspends it: said
    // once, by the budget's alert).
    const scout = await connectedAgent(server, dana, "scout");
    await dana.api.usage.setBudget.mutate({ subjectType: "agent", subjectId: scout.id, period: "day", unit: "usd", amount: 1 });
    await scout.client.reportUsage({ model: "gpt-5", inputTokens: 100, outputTokens: 10, costUsd: 0.9 });
    await scout.client.reportUsage({ model: "gpt-5", inputTokens: 100, outputTokens: 10, costUsd: 0.2 });
    // Bea's agent: Dana (an admin) suspends it, and Dana asks another of Bea's agents to connect; Bea accepts.
    const helper = await createAgent(bea, "helper");
    const quiet = await createAgent(bea, "quiet");
    await dana.api.agents.suspend.mutate({ agentId: quiet.id, reason: "runaway loop" });
    const request = await dana.api.connections.request.mutate({ participantId: helper.id, message: "Work with me?" });
    await bea.api.connections.respond.mutate({ connectionId: request.id, decision: "accept" });

    const danas = await dana.api.notifications.alerts.query();
    expect(danas.map((a) => [a.kind, a.text, a.href])).toEqual([
      ["connection.accepted", "@bea accepted your request to connect with @helper.", "/inbox"],
      ["budget.exceeded", "@scout reached its daily budget ($1.10 of $1.00) and was suspended.", "/usage"],
      ["budget.warned", "@scout reached 80% of its daily budget ($0.90 of $1.00).", "/usage"],
    ]);
    // Bea hears of her agent's suspension, not of Dana's agent, nor of the request she accepted herself.
    const beas = await bea.api.notifications.alerts.query();
    expect(beas.map((a) => a.text)).toEqual(["@quiet was suspended by @dana: runaway loop."]);
    expect(Date.parse(beas[0].at)).toBeGreaterThan(Date.now() - 60_000);
  });
});
