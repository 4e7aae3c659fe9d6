// The talk's first demo across two companies, each its own workspace of one deployment, in two browsers.
// Kim at Contoso publishes an assistant (an SDK agent on her key that answers a mention with a report).
// Ana at Acme shares a channel with Contoso from its settings; Kim approves it in Admin → Connections.
// Acme's Codex-style SDK agent finds the assistant in the directory over its socket (named with its
// workspace), asks to connect; Kim accepts in her Inbox, which names Acme; the agent invites the
// assistant into the shared channel and asks it; Ana sees the report arrive, tagged "Contoso". Kim
// joins it from Browse channels ("From Acme Industries"); then, as Contoso's admin, takes Contoso out of it.
// An Acme member who owns a channel but is no admin is told to ask an admin to share it.
// Runs on the second server, where anyone may create a workspace. Screenshot: docs/screenshots/shared-room.png.
import { mkdirSync } from "node:fs";
import { SwitchboardClient } from "@switchboard/sdk";
import type { RoomView } from "@switchboard/sdk/contract";
import { expect, test } from "./fixtures";
import { createInviteLink, expectInGeneral, messageWithText, signUpCreating, trpc, workspaceIdOf, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-5);
const ana: Person = { name: "Ana Lima", handle: `ana-${run}`, email: `ana-${run}@acme.example`, password: "ana-password-123" };
const mo: Person = { name: "Mo Silva", handle: `mo-${run}`, email: `mo-${run}@acme.example`, password: "mo-password-1234" };
const kim: Person = { name: "Kim Park", handle: `kim-${run}`, email: `kim-${run}@contoso.example`, password: "kim-password-123" };
const ACME = "Acme Industries";
const CONTOSO = "Contoso";
const codexHandle = `codex-${run}`;
const atlasHandle = `atlas-${run}`;
const REPORT = "Q3 report: revenue up 12%, churn 1.8%, two launches slipped to October.";

test("an agent of one company asks another company's assistant in a shared channel, under consent on both sides", async ({ browser, baseURL }) => {
  const started = performance.now();
  const clients: SwitchboardClient[] = [];
  try {
    const a = await (await browser.newContext()).newPage();
    const k = await (await browser.newContext()).newPage();
    await Promise.all([signUpCreating(a, ana, ACME), signUpCreating(k, kim, CONTOSO)]);
    const acme = workspaceIdOf(a);
    const contoso = workspaceIdOf(k);

    // The two workspaces are connected (the Connections tab's own flow is workspaces.spec.ts'); each
    // side lets the other find its agents and asks its admin to approve each shared room.
    const { code } = await trpc<{ code: string }>(a, "workspaceConnections.invite", { side: { directory: "agents", approveRooms: true } });
    await trpc(k, "workspaceConnections.accept", { code, side: { directory: "agents", approveRooms: true } });

    // Kim publishes her assistant; it answers what is addressed to it with a report.
    const atlas = await trpc<{ agent: { id: string }; apiKey: string }>(k, "agents.create", {
      handle: atlasHandle,
      displayName: "Atlas",
      description: "Kim's assistant: reports and scheduling.",
      framework: "script",
      capabilities: ["reports"],
    });
    const assistant = new SwitchboardClient({ url: baseURL!, apiKey: atlas.apiKey });
    clients.push(assistant);
    await assistant.connect();
    assistant.onMessage(async (message, { addressed }) => {
      if (addressed && message.kind === "text") await assistant.send(message.roomId, REPORT);
    });

    // Acme's Codex-style agent, Ana's, in a channel of Acme's.
    const codexAgent = await trpc<{ agent: { id: string }; apiKey: string }>(a, "agents.create", {
      handle: codexHandle,
      displayName: "Codex",
      description: "Ships Acme's releases.",
      framework: "codex",
      capabilities: ["code"],
    });
    const room = await trpc<RoomView>(a, "rooms.createChannel", {
      name: `launch-${run}`,
      visibility: "public",
      topic: "Launch review",
      memberIds: [codexAgent.agent.id],
    });
    const codex = new SwitchboardClient({ url: baseURL!, apiKey: codexAgent.apiKey });
    clients.push(codex);
    await codex.connect();

    // Ana shares the channel with Contoso from its settings: it waits for Contoso's admin.
    await a.goto(`/w/${acme}/r/${room.id}`);
    await a.getByTestId("channel-settings").click();
    await a.getByTestId("channel-share-workspace").selectOption(contoso);
    await a.getByTestId("channel-share-submit").click();
    await expect(a.getByTestId("channel-share-row").getByTestId("channel-share-status")).toHaveText(`Waiting for ${CONTOSO}'s admin`);
    mkdirSync("artifacts", { recursive: true });
    await a.getByTestId("channel-settings-dialog").screenshot({ path: "artifacts/channel-share.png" });
    await a.keyboard.press("Escape");

    // Kim approves it in Admin → Connections.
    await k.goto(`/w/${contoso}/admin#connections`);
    const incoming = k.locator(`[data-testid="share-row"][data-room-id="${room.id}"]`);
    await expect(incoming.getByTestId("share-status")).toHaveText("Waiting for your approval");
    await expect(incoming).toContainText(`From ${ACME}`);
    await incoming.getByTestId("share-approve").click();
    await expect(incoming).toHaveAttribute("data-status", "active");
    await expect(incoming.getByTestId("share-leave")).toBeVisible();
    await k.getByTestId("shared-channels").screenshot({ path: "artifacts/shared-channels.png" });
    await expect(a.getByTestId("room-shared")).toHaveText(`Shared with ${CONTOSO}`);
    const anaSidebarMark = a.locator(`[data-testid="sidebar-room"][data-room-id="${room.id}"]`).getByTestId("shared-mark");
    await expect(anaSidebarMark).toHaveAttribute("title", `Shared with ${CONTOSO}`);

    // The agent finds the assistant through the directory, over its socket, named with its workspace.
    const found = await codex.findParticipants({ text: atlasHandle });
    expect(found.map((p) => [p.handle, p.workspace?.name])).toEqual([[atlasHandle, CONTOSO]]);
    const asked = await codex.requestConnection(found[0].id, { message: "May I ask Atlas for Contoso's Q3 report in our launch channel?" });
    expect(asked.status).toBe("pending");

    // Kim accepts in her Inbox, which says the request comes from Acme.
    await k.goto(`/w/${contoso}/inbox`);
    const request = k.locator(`[data-testid="request-card"][data-requester="${codexHandle}"]`);
    await expect(request.getByTestId("requester-workspace")).toContainText(ACME);
    await expect(request).toContainText("your agent Atlas");
    await request.screenshot({ path: "artifacts/inbox-across.png" });
    await request.getByTestId("accept-request").click();
    await expect(request).toBeHidden();
    await expect.poll(async () => (await codex.listConnections("accepted")).some((c) => c.addressee.id === atlas.agent.id)).toBe(true);

    // The agent invites the assistant into the shared channel and asks it; Ana sees the report come back.
    await codex.invite(room.id, [atlas.agent.id]);
    const ask = `@${atlasHandle} please send Contoso's Q3 report`;
    await codex.send(room.id, ask);
    await expect(messageWithText(a, ask)).toBeVisible();
    const reply = messageWithText(a, REPORT);
    await expect(reply).toBeVisible();
    await expect(reply.getByTestId("workspace-tag")).toHaveText(CONTOSO);
    await expect(messageWithText(a, ask).getByTestId("workspace-tag")).toHaveCount(0);
    await a.getByTestId("toggle-members").click();
    await expect(a.locator(`[data-testid="member"][data-handle="${atlasHandle}"]`).getByTestId("workspace-tag")).toHaveText(CONTOSO);
    const dismiss = a.getByTestId("toast").getByRole("button", { name: "Dismiss" });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    mkdirSync("docs/screenshots", { recursive: true });
    await a.screenshot({ path: "docs/screenshots/shared-room.png" });

    // On Contoso's side the channel reads as Acme's: in Browse channels, and in its header once joined.
    await k.goto(`/w/${contoso}`);
    await k.getByTestId("browse-channels").click();
    const listed = k.locator(`[data-testid="browse-channel"][data-name="launch-${run}"]`);
    await expect(listed.getByTestId("browse-shared-from")).toHaveText(`From ${ACME}`);
    await listed.getByTestId("browse-join").click();
    await expect(k).toHaveURL(new RegExp(`/w/${contoso}/r/${room.id}$`));
    await expect(k.getByTestId("room-shared")).toHaveText(`From ${ACME}`);
    await expect(k.locator(`[data-testid="sidebar-room"][data-room-id="${room.id}"]`).getByTestId("shared-mark")).toHaveAttribute("title", `From ${ACME}`);

    // Contoso's admin takes Contoso out of it: its people and agents leave at once; Acme keeps the channel.
    await k.goto(`/w/${contoso}/admin#connections`);
    await incoming.getByTestId("share-leave").click();
    await expect(k.getByTestId("share-leave-dialog")).toContainText("leave #launch-");
    await k.getByTestId("share-leave-confirm").click();
    await expect(k.getByTestId("shared-channels-empty")).toBeVisible();
    await expect(a.getByTestId("room-shared")).toHaveCount(0);
    await expect(anaSidebarMark).toHaveCount(0);
    await expect(a.locator(`[data-testid="member"][data-handle="${atlasHandle}"]`)).toHaveCount(0);
    await expect(messageWithText(a, REPORT)).toBeVisible();

    // A channel owner who is not an admin, where Acme asks that an admin share each channel: told whom to ask.
    const link = await createInviteLink(a);
    const m = await (await browser.newContext()).newPage();
    await m.goto(link);
    await m.getByTestId("signup-name").fill(mo.name);
    await m.getByTestId("signup-handle").fill(mo.handle);
    await m.getByTestId("signup-email").fill(mo.email);
    await m.getByTestId("signup-password").fill(mo.password);
    await m.getByTestId("signup-submit").click();
    await expectInGeneral(m);
    const mine = await trpc<RoomView>(m, "rooms.createChannel", { name: `mo-${run}`, visibility: "public", topic: "", memberIds: [] });
    await m.goto(`/w/${acme}/r/${mine.id}`);
    await m.getByTestId("channel-settings").click();
    await expect(m.getByTestId("channel-share-ask-admin")).toContainText(`${ACME} asks that an admin share each channel with ${CONTOSO}`);
    await expect(m.getByTestId("channel-share-form")).toHaveCount(0);

    console.log(`shared-channels demo: ${Math.round(performance.now() - started)} ms`);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});
