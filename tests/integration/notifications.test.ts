// Email notifications end to end: a real SMTP server on loopback receives what the real server mails.
// A burst of mentions is one digest; `none` mails nothing; what the person read in the app before the
// digest went is left out; under `all` a dm's every message notifies; one's own message never does.
// Nothing is asserted after a sleep: each "not mailed" is read from a later mail that did come.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAgentClients, closeSockets, connectedAgent, dialects, errorCode, signUpPerson, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

interface Received {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** An SMTP server on a free loopback port that keeps every mail it is given, parsed. */
async function startSmtp(): Promise<{ url: string; mails: Received[]; close(): Promise<void> }> {
  const mails: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true, // loopback only
    disabledCommands: ["STARTTLS"],
    onAuth: (auth, _session, done) =>
      auth.username === "mailer" && auth.password === "s3cret" ? done(null, { user: auth.username }) : done(new Error("bad credentials")),
    onData(stream, _session, done) {
      simpleParser(stream).then(
        (mail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(", ") : (mail.to?.text ?? "");
          mails.push({ to, subject: mail.subject ?? "", text: mail.text ?? "", html: typeof mail.html === "string" ? mail.html : "" });
          done();
        },
        (error: Error) => done(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://mailer:s3cret@127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => smtp.close(() => resolve())) };
}

describe.each(dialects)("email notifications on %s", (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let owner: Person;

  const mailsTo = (person: Person) => smtp.mails.filter((m) => m.to.includes(person.email));
  const waitForMails = (person: Person, count: number) => waitFor(() => mailsTo(person).length >= count, 15_000, `${count} mail(s) to @${person.handle}`);

  /** Waits for the person's first mail; it is their only one, and holds `has` but not `lacks`. */
  async function onlyDigest(person: Person, has: string, lacks: string): Promise<Received> {
    await waitForMails(person, 1);
    expect(mailsTo(person)).toHaveLength(1);
    const [digest] = mailsTo(person);
    expect(digest.text).toContain(has);
    expect(digest.text).not.toContain(lacks);
    return digest;
  }

  /** A person of the workspace with an agent of their own (an owner and their agent need no connection to mention). */
  async function personWithAgent(handle: string) {
    const invite = (await owner.api.workspace.createInvite.mutate({})).token;
    const person = await signUpPerson(server, { handle, inviteToken: invite });
    const agent = await connectedAgent(server, person, `${handle}bot`);
    return { person, agent };
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    ({
      server,
      people: { owner },
    } = await startWorkspace(dialect, {
      people: { owner: "owner" },
      env: { SMTP_URL: smtp.url, SMTP_FROM: "Switchboard <notify@example.test>", NOTIFY_BATCH_SECONDS: "1" },
    }));
    await owner.api.workspace.setLimits.mutate({ agentMessagesPerMinute: 10_000, agentBurst: 10_000 });
  }, 90_000);

  afterAll(async () => {
    closeSockets();
    await closeAgentClients();
    await server?.dispose();
    await smtp?.close();
  });

  it("defaults to mentions, and a burst of mentions by an agent is one digest listing them all", async () => {
    const { person, agent } = await personWithAgent("ben");
    expect(await person.api.notifications.settings.query()).toEqual({ notifications: "mentions", email: true });
    const room = await person.api.rooms.createChannel.mutate({ name: `burst-${dialect}`, visibility: "private", memberIds: [agent.id] });
    await Promise.all([1, 2, 3, 4, 5].map((n) => agent.client.send(room.id, `@ben burst item ${n}`)));

    await waitForMails(person, 1);
    const [digest] = mailsTo(person);
    for (const n of [1, 2, 3, 4, 5]) expect(digest.text).toContain(`burst item ${n}`);
    expect(digest.subject).toBe("5 new notifications in Switchboard");
    expect(digest.text).toContain(`/r/${room.id}`);
    expect(digest.html).toContain("mentioned you");

    // A later mention is a second mail, holding only itself: the burst went out once.
    await agent.client.send(room.id, "@ben one more thing");
    await waitForMails(person, 2);
    expect(mailsTo(person)).toHaveLength(2);
    expect(mailsTo(person)[1].text).toContain("one more thing");
    expect(mailsTo(person)[1].text).not.toContain("burst item");
  });

  it("mails nothing under `none`", async () => {
    const { person, agent } = await personWithAgent("cy");
    expect(await person.api.notifications.setPreference.mutate({ notifications: "none" })).toMatchObject({ notifications: "none" });
    const room = await person.api.rooms.createChannel.mutate({ name: `quiet-${dialect}`, visibility: "private", memberIds: [agent.id] });
    await agent.client.send(room.id, "@cy said while notifications were off");

    await person.api.notifications.setPreference.mutate({ notifications: "mentions" });
    await agent.client.send(room.id, "@cy said once they were back on");
    await onlyDigest(person, "once they were back on", "while notifications were off");
  });

  it("leaves out a mention the person read in the app before the digest went", async () => {
    const { person, agent } = await personWithAgent("dee");
    const room = await person.api.rooms.createChannel.mutate({ name: `read-${dialect}`, visibility: "private", memberIds: [agent.id] });
    const seen = await agent.client.send(room.id, "@dee alpha seen in the app");
    await person.api.messages.markRead.mutate({ roomId: room.id, seq: seen.seq });
    await agent.client.send(room.id, "@dee bravo still pending");

    const digest = await onlyDigest(person, "bravo still pending", "alpha seen");
    expect(digest.subject).toContain("mentioned you");
  });

  it("under `all`, every message of a dm notifies, but never one's own", async () => {
    const { person, agent } = await personWithAgent("eve");
    await person.api.notifications.setPreference.mutate({ notifications: "all" });
    const dm = await person.api.rooms.openDirect.mutate({ participantIds: [agent.id] });
    await person.api.messages.send.mutate({ roomId: dm.id, body: "my own words, even @eve", clientMsgId: crypto.randomUUID() });
    await agent.client.send(dm.id, "a plain direct message, no mention");

    const digest = await onlyDigest(person, "a plain direct message, no mention", "my own words");
    expect(digest.subject).toContain("wrote");
  });

  it("mails the person a question is for, whoever asks it of them: their agent, or anyone in their room", async () => {
    const { person, agent } = await personWithAgent("quinn");
    const room = await person.api.rooms.createChannel.mutate({ name: `asks-${dialect}`, visibility: "private", memberIds: [agent.id] });
    await agent.client.postQuestion(room.id, { prompt: "Deploy to production now?", kind: "approval", audience: { type: "owner" } });
    await agent.client.postQuestion(room.id, {
      prompt: "Which region first?",
      kind: "single",
      options: [
        { value: "eu", label: "EU" },
        { value: "us", label: "US" },
      ],
      audience: { type: "room" },
    });
    const digest = await onlyDigest(person, "Deploy to production now?", "never");
    await waitFor(() => mailsTo(person).some((m) => m.text.includes("Which region first?")), 15_000, "the room's question in a mail");
    expect(digest.text).toContain("@quinnbot asks");
  });

  it("refuses a preference that is not one of the three", async () => {
    expect(await errorCode(owner.api.notifications.setPreference.mutate({ notifications: "loud" as never }))).toBe("INVALID_PAYLOAD");
    expect(await owner.api.notifications.settings.query()).toEqual({ notifications: "mentions", email: true });
  });
});
