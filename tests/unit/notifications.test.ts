// What notifies whom (one rule for the email outbox and the browser), and the digest a person is mailed.
import { describe, expect, it } from "vitest";
import { excerptOf, notificationFor, type MessageView } from "@switchboard/sdk/contract";
import { composeDigest } from "../../server/services/notifications/digest";

const message = (over: Partial<Pick<MessageView, "kind" | "mentions">> & { authorId?: string } = {}) => ({
  kind: over.kind ?? ("text" as const),
  author: { id: over.authorId ?? "bot", handle: "bot", displayName: "Bot", kind: "agent" as const },
  mentions: over.mentions ?? [],
});

describe("notificationFor", () => {
  const person = (notifications: "all" | "mentions" | "none") => ({ id: "me", notifications });
  it("tells of a mention under `mentions` and `all`, never under `none`", () => {
    expect(notificationFor(message({ mentions: ["me"] }), person("mentions"), "channel")).toBe("mention");
    expect(notificationFor(message({ mentions: ["me"] }), person("all"), "channel")).toBe("mention");
    expect(notificationFor(message({ mentions: ["me"] }), person("none"), "dm")).toBeNull();
  });
  it("tells of every dm and group message only under `all`, and of no channel message unmentioned", () => {
    expect(notificationFor(message(), person("all"), "dm")).toBe("message");
    expect(notificationFor(message(), person("all"), "group")).toBe("message");
    expect(notificationFor(message(), person("all"), "channel")).toBeNull();
    expect(notificationFor(message(), person("mentions"), "dm")).toBeNull();
  });
  it("never tells of one's own message, nor of room events", () => {
    expect(notificationFor(message({ authorId: "me", mentions: ["me"] }), person("all"), "dm")).toBeNull();
    expect(notificationFor(message({ kind: "event", mentions: ["me"] }), person("all"), "dm")).toBeNull();
  });
});

describe("the digest", () => {
  const rooms = new Map([
    ["r1", "#launch"],
    ["r2", "Ada"],
  ]);
  it("lists every item under its room with a link, in text and escaped HTML", () => {
    const digest = composeDigest(
      [
        { kind: "mention", roomId: "r1", title: "Bot (@bot) mentioned you", excerpt: "ship <it>?" },
        { kind: "message", roomId: "r2", title: "Ada (@ada) wrote", excerpt: "lunch" },
        { kind: "mention", roomId: "r1", title: "Bot (@bot) mentioned you", excerpt: "again" },
      ],
      rooms,
      { publicUrl: "https://sb.example/", preference: "all" },
    );
    expect(digest.subject).toBe("3 new notifications in Switchboard");
    expect(digest.text).toContain("#launch  https://sb.example/r/r1\n  - Bot (@bot) mentioned you: ship <it>?\n  - Bot (@bot) mentioned you: again");
    expect(digest.text).toContain("https://sb.example/settings");
    expect(digest.html).toContain("ship &lt;it&gt;?");
    expect(digest.html).not.toContain("<it>");
  });
  it("is titled by its one item when there is one", () => {
    const digest = composeDigest([{ kind: "question", roomId: "r2", title: "Bot asks you to approve", excerpt: "deploy?" }], rooms, {
      publicUrl: "http://x",
      preference: "mentions",
    });
    expect(digest.subject).toBe("Bot asks you to approve in Ada");
  });
  it("keeps excerpts to one short line", () => {
    expect(excerptOf("a\n\n  b")).toBe("a b");
    expect(excerptOf("x".repeat(500))).toHaveLength(200);
  });
});
