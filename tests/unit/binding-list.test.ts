// The browser's binding lists under `binding:updated`: an event is merged keeping the viewer's `room`
// and `can`, re-sorted as the server sorts; a closed binding leaves an open-only list; one the list
// has not seen asks for a refetch; an event from an older session changes nothing. And the status
// shown as time passes: an active binding whose lease ran out reads as stale.
import { describe, expect, it } from "vitest";
import { applyBinding } from "../../components/bindings/binding-list";
import { resumeWarning, runtimeLabel, shortId, statusNow } from "../../components/bindings/format";
import type { BindingForViewer, BindingView } from "@switchboard/sdk/bindings";
import { sampleBinding } from "../support/binding-view";

const view = (id: string, over: Partial<BindingView> = {}): BindingView =>
  sampleBinding({ id, runtime: "claude-agent-sdk", runner: "dana-laptop", lastUsedAt: "2026-12-01T10:00:00.000Z", ...over });
const forViewer = (b: BindingView, close = true): BindingForViewer => ({
  ...b,
  room: { id: b.roomId, title: "deploys", kind: "channel", readable: true },
  can: { close },
});

describe("applyBinding", () => {
  const older = forViewer(view("a", { lastUsedAt: "2026-12-01T10:00:00.000Z" }), false);
  const newer = forViewer(view("b", { lastUsedAt: "2026-12-01T11:00:00.000Z" }));
  const list = [newer, older];

  it("merges an update, keeping the viewer's room and can, most recently used first", () => {
    const next = applyBinding(list, view("a", { resumes: 3, externalId: "5f2e", lastUsedAt: "2026-12-01T12:00:00.000Z" }), false);
    expect(next).toEqual([{ ...older, resumes: 3, externalId: "5f2e", lastUsedAt: "2026-12-01T12:00:00.000Z" }, newer]);
    expect((next as BindingForViewer[])[0].can).toEqual({ close: false });
  });

  it("drops a closed binding from an open-only list, keeps it (closed) in a full one", () => {
    const closed = view("b", { status: "closed", closedAt: "2026-12-01T11:30:00.000Z", lastUsedAt: newer.lastUsedAt });
    expect(applyBinding(list, closed, false)).toEqual([older]);
    expect(applyBinding(list, closed, true)).toEqual([{ ...newer, status: "closed", closedAt: "2026-12-01T11:30:00.000Z" }, older]);
  });

  it("asks for a refetch for a binding it has not seen (its room and can are the server's to say)", () => {
    expect(applyBinding(list, view("c"), false)).toBe("refetch");
    expect(applyBinding(list, view("c", { status: "closed" }), false)).toBe("unchanged");
    expect(applyBinding(list, view("c", { status: "closed" }), true)).toBe("refetch");
  });

  it("ignores an event from a previous session of the key", () => {
    const current = [forViewer(view("a", { generation: 2, status: "active" }))];
    expect(applyBinding(current, view("a", { generation: 1, status: "closed" }), false)).toBe("unchanged");
  });
});

describe("how a binding reads", () => {
  it("turns stale on screen once a running turn's lease has passed", () => {
    const b = view("a", { status: "active", leaseUntil: "2026-12-01T10:00:30.000Z" });
    expect(statusNow(b, Date.parse("2026-12-01T10:00:29.000Z"))).toBe("active");
    expect(statusNow(b, Date.parse("2026-12-01T10:00:30.000Z"))).toBe("stale");
    expect(statusNow(view("a", { status: "idle" }), Date.now())).toBe("idle");
  });

  it("names runtimes, shortens ids, and warns only for an unrecovered failed resume", () => {
    expect([runtimeLabel("claude-agent-sdk"), runtimeLabel("codex"), runtimeLabel("langgraph"), runtimeLabel("my.runtime")]).toEqual([
      "Claude session",
      "Codex thread",
      "LangGraph thread",
      "my.runtime",
    ]);
    expect(shortId("5f2e8a4c-1b7d-4e0a")).toBe("5f2e8a…");
    expect(shortId("thread_1")).toBe("thread_1");
    expect(resumeWarning(view("a", { resumeFailures: 1, lastError: "No conversation found" }))).toBe(
      "Could not resume: No conversation found — started fresh with recent history",
    );
    expect(resumeWarning(view("a", { resumeFailures: 1, lastError: null }))).toBeNull();
    expect(resumeWarning(view("a", { resumeFailures: 1, lastError: "x", status: "closed" }))).toBeNull();
  });
});
