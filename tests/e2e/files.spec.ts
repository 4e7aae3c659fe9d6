// Files in the browser: a picture attached with the composer's button and a Markdown document pasted
// into it, each uploaded with its progress shown, then sent; the picture previewed with its
// dimensions (and opened large), the document opened in the viewer, rendered; another person's
// browser shows both live. Screenshot: docs/screenshots/files.png.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import type { RoomView } from "@switchboard/sdk/contract";
import { people, signUpFirstOrSignIn, signUpWithInvite, trpc } from "./helpers";
import { pdf, png } from "../integration/fixtures/sample-files";

const run = randomUUID().slice(0, 6);

test("files are attached by button and by paste, previewed with their dimensions, opened in the viewer, and seen live elsewhere", async ({ page, browser }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const room = await trpc<RoomView>(page, "rooms.createChannel", { name: `files-${run}`, visibility: "public", memberIds: [] });
  const { token } = await trpc<{ token: string }>(page, "workspace.createInvite", {});
  const other = await (await browser.newContext()).newPage();
  const reviewer = { name: "Rhea Reviewer", handle: `rhea${run}`, email: `rhea-${run}@example.com`, password: "rhea-password-12" };
  await signUpWithInvite(other, `/invite/${token}`, reviewer, people.alice.name);
  await trpc(other, "rooms.join", { roomId: room.id });
  await other.goto(`/r/${room.id}`);
  await page.goto(`/r/${room.id}`);
  await expect(page.getByTestId("composer")).toBeVisible();

  // The attach button opens the file picker; the picture uploads, then goes with the words.
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId("composer-attach").click();
  await (await chooser).setFiles({ name: "diagram.png", mimeType: "image/png", buffer: png(640, 480) });
  await expect(page.getByTestId("composer-file")).toHaveAttribute("data-status", "done");
  await page.getByTestId("composer").fill(`The architecture ${run}`);
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("composer-file")).toHaveCount(0);

  const caption = (p: typeof page) => p.getByTestId("timeline").getByTestId("image-caption");
  await expect(caption(page)).toHaveText(/^diagram\.png · 640 × 480 · /);
  await expect(caption(other)).toHaveText(/^diagram\.png · 640 × 480 · /); // live in the other browser
  await expect(other.getByTestId("timeline").getByTestId("image-preview").locator("img")).toHaveJSProperty("naturalWidth", 640);

  // A document pasted into the box: attached, and sent alone with Enter.
  const prd = `# Product requirements ${run}\n\n- Agents review **PRDs** together\n- Files up to 25 MB\n`;
  await page.getByTestId("composer").evaluate((box, text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "prd.md", { type: "text/markdown" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, prd);
  await expect(page.getByTestId("composer-file")).toHaveAttribute("data-status", "done");
  await page.getByTestId("composer").press("Enter");
  const card = other.getByTestId("timeline").getByTestId("file-card");
  await expect(card).toContainText("prd.md");
  await expect(card).toContainText("Markdown");
  mkdirSync("docs/screenshots", { recursive: true });
  await other.screenshot({ path: "docs/screenshots/files.png" });

  // The other person opens it: rendered as Markdown, in a dialog Esc closes.
  await card.click();
  const viewer = other.getByTestId("file-viewer");
  await expect(viewer.getByTestId("file-markdown").getByRole("heading")).toHaveText(`Product requirements ${run}`);
  await expect(viewer.getByTestId("file-markdown").locator("strong")).toHaveText("PRDs");
  await expect(viewer.getByTestId("file-download")).toHaveAttribute("href", /\/api\/files\/.+\/prd\.md$/);
  await other.keyboard.press("Escape");
  await expect(viewer).toBeHidden();

  // A PDF opens in a frame of its own URL (served inline, sandboxed); code with its line numbers.
  const upload = async (name: string, data: Buffer | string) => {
    const res = await page.request.post(`/api/files?${new URLSearchParams({ roomId: room.id, name })}`, {
      data,
      headers: { origin: new URL(page.url()).origin },
    });
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const fileIds = [await upload("spec.pdf", pdf("Hello PDF")), await upload("agent.ts", "export const answer = 42;\nconsole.log(answer);\n")];
  await trpc(page, "messages.send", { roomId: room.id, body: "Spec and code", clientMsgId: randomUUID(), fileIds });
  await other.getByTestId("timeline").getByTestId("file-card").filter({ hasText: "spec.pdf" }).click();
  await expect(viewer.getByTestId("file-pdf")).toHaveAttribute("src", /\/api\/files\/.+\/spec\.pdf$/);
  await other.keyboard.press("Escape");
  await other.getByTestId("timeline").getByTestId("file-card").filter({ hasText: "agent.ts" }).click();
  await expect(viewer.getByTestId("file-text")).toContainText("console.log(answer);");
  await expect(viewer.getByTestId("file-text").locator("[aria-hidden=true]")).toHaveText(["1", "2"]);
  await other.keyboard.press("Escape");

  // The picture opens large.
  await page.getByTestId("timeline").getByTestId("image-preview").click();
  await expect(page.getByTestId("file-viewer").locator("img")).toHaveAttribute("width", "640");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("file-viewer")).toBeHidden();

  // On a phone the button is there too, a finger's width, beside Send.
  await page.setViewportSize({ width: 390, height: 844 });
  const attach = page.getByTestId("composer-attach");
  await expect(attach).toBeInViewport();
  expect((await attach.boundingBox())!.width).toBeGreaterThanOrEqual(32);
});
