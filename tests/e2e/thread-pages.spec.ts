// A long thread opens at its newest replies; earlier ones come a page at a time, on demand.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import type { MessageView } from "@switchboard/sdk/contract";
import { clickHoverAction, messageWithText, people, send, signUpFirstOrSignIn, trpc } from "./helpers";

test("a long thread shows its newest replies first and earlier ones on demand", async ({ page }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const roomId = new URL(page.url()).pathname.split("/").at(-1)!;
  const rootText = `A thread with many replies ${randomUUID().slice(0, 8)}`;
  await send(page, rootText);
  await expect(messageWithText(page, rootText)).toBeVisible();
  const { messages } = await trpc<{ messages: MessageView[] }>(page, "messages.history", { roomId, limit: 5 }, "query");
  const root = messages.find((m) => m.body === rootText)!;
  const replies = Array.from({ length: 55 }, (_, i) => `reply ${String(i + 1).padStart(2, "0")}`);
  for (const body of replies) await trpc(page, "messages.send", { roomId, body, clientMsgId: randomUUID(), threadRootId: root.id });

  await clickHoverAction(messageWithText(page, rootText), "action-reply");
  const panel = page.getByTestId("thread-panel");
  const bodies = page.getByTestId("thread-replies").getByTestId("message-body");
  await expect(bodies).toHaveText(replies.slice(5));
  await expect(panel).toContainText("55 replies");
  await page.getByTestId("thread-messages").evaluate((el) => el.scrollTo(0, 0));
  await panel.screenshot({ path: "artifacts/thread-earlier.png" });
  await page.getByTestId("earlier-replies").click();
  await expect(bodies).toHaveText(replies);
  await expect(page.getByTestId("earlier-replies")).toHaveCount(0);
  await panel.screenshot({ path: "artifacts/thread-pages.png" });
});
