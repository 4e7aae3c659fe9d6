// A tab that loses its connection catches up by seq when it comes back, and what it tried to send
// while offline goes out then, once (same clientMsgId).
import { expect, test } from "./fixtures";
import { messageBodies, messageWithText, people, send, signUpFirstOrSignIn } from "./helpers";

test("an offline tab catches up on reconnect and sends what it could not", async ({ browser }) => {
  const ctxOne = await browser.newContext();
  const ctxTwo = await browser.newContext();
  const one = await ctxOne.newPage();
  const two = await ctxTwo.newPage();
  await signUpFirstOrSignIn(one, people.alice);
  await signUpFirstOrSignIn(two, people.alice);
  await expect(one.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");

  await ctxOne.setOffline(true);
  await expect(one.getByTestId("connection-status")).toHaveAttribute("data-status", "reconnecting");
  await expect(one.getByTestId("reconnecting")).toBeVisible();

  await send(two, "Sent while the other tab was offline");
  await send(one, "Written offline, sent on reconnect");
  await expect(one.getByTestId("send-error")).toContainText("offline");
  await expect(one.getByTestId("retry-send")).toBeVisible();

  await ctxOne.setOffline(false);
  await expect(one.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
  await expect(messageWithText(one, "Sent while the other tab was offline")).toBeVisible();
  await expect(messageWithText(one, "Written offline, sent on reconnect")).toHaveCount(1);
  await expect(messageWithText(two, "Written offline, sent on reconnect")).toHaveCount(1);
  await expect(one.getByTestId("pending-message")).toHaveCount(0);
  await expect(messageBodies(two)).toHaveText(await messageBodies(one).allInnerTexts());

  await Promise.all([ctxOne.close(), ctxTwo.close()]);
});
