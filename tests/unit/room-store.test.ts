// The browser's room state: live messages (one by one or in batches), history and sync merge by seq,
// and a gap is filled from where it starts, however far the cursor has moved since.
import { describe, expect, it } from "vitest";
import type { AppSocket } from "../../components/providers/socket-provider";
import { RoomStore } from "../../components/rooms/room-store";
import type { MessageView } from "@switchboard/sdk/contract";

const ROOM = "room-1";
const message = (seq: number, authorId = "other"): MessageView => ({
  id: `m${seq}`,
  roomId: ROOM,
  seq,
  kind: "text",
  author: { id: authorId, handle: authorId, displayName: authorId, kind: "human" },
  body: `message ${seq}`,
  clientMsgId: `c${seq}`,
  threadRootId: null,
  replyCount: 0,
  lastReplyAt: null,
  mentions: [],
  data: null,
  createdAt: new Date(0).toISOString(),
  editedAt: null,
  deletedAt: null,
  receipts: [],
  files: [],
  reactions: [],
  pinned: null,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

/** A store loaded with seqs 1..`stored` and a socket whose room:sync answers from the same list. */
async function storeWith(stored: number, opts: { page?: number } = {}) {
  let room = range(1, stored);
  const syncs: number[] = [];
  const socket = {
    connected: true,
    timeout: () => ({
      emitWithAck: async (event: string, p: { afterSeq: number; limit: number }) => {
        expect(event).toBe("room:sync");
        syncs.push(p.afterSeq);
        const after = room.filter((m) => m.seq > p.afterSeq);
        const limit = Math.min(p.limit, opts.page ?? p.limit);
        return { ok: true, data: { messages: after.slice(0, limit), hasMore: after.length > limit, lastSeq: room.at(-1)?.seq ?? 0 } };
      },
    }),
  } as unknown as AppSocket;
  const store = new RoomStore(ROOM, "me", {
    history: async () => ({ messages: room.slice(-50), hasMore: room.length > 50 }),
    thread: async () => {
      throw new Error("no threads here");
    },
  });
  store.setSocket(socket);
  await store.loadInitial();
  await store.sync(); // the one loadInitial started
  syncs.length = 0;
  return {
    store,
    syncs,
    /** Messages stored on the server that this browser was not sent. */
    storeOnServer: (to: number) => void (room = range(1, to)),
    seqs: () => store.getSnapshot().items.map((m) => m.seq),
  };
}

describe("room store", () => {
  it("takes a batch as its messages in order, dropping what it already has", async () => {
    const { store, syncs, seqs } = await storeWith(3);
    store.receiveLive(message(4), true);
    store.receiveBatch(ROOM, range(4, 7)); // 4 again: a duplicate, not a second copy
    store.receiveBatch("another-room", range(8, 9));
    expect(seqs()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(store.getSnapshot().cursor).toBe(7);
    expect(syncs).toEqual([]); // no gap, no sync
  });

  it("fills a gap from where it starts, whether it shows in a batch or a single message", async () => {
    const { store, syncs, seqs, storeOnServer } = await storeWith(3);
    storeOnServer(10);
    store.receiveBatch(ROOM, range(8, 10)); // 4..7 never arrived (a reconnect, say)
    await store.sync();
    expect(syncs[0]).toBe(3);
    expect(seqs()).toEqual(range(1, 10).map((m) => m.seq));

    storeOnServer(15);
    syncs.length = 0;
    store.receiveLive(message(15), true); // 11..14 missed
    await store.sync();
    expect(syncs[0]).toBe(10);
    expect(seqs()).toEqual(range(1, 15).map((m) => m.seq));
  });

  it("pages a long gap from its start and keeps where an unfinished sync stopped", async () => {
    const { store, syncs, seqs, storeOnServer } = await storeWith(2, { page: 4 });
    storeOnServer(20);
    store.receiveLive(message(20), true);
    await store.sync();
    expect(syncs.slice(0, 5)).toEqual([2, 6, 10, 14, 18]);
    expect(seqs()).toEqual(range(1, 20).map((m) => m.seq));

    // Disconnected before the gap could be fetched: the next sync (after session:ready) starts there.
    storeOnServer(30);
    const socket = (store as unknown as { socket: { connected: boolean } }).socket;
    socket.connected = false;
    store.receiveLive(message(30), true);
    await store.sync();
    socket.connected = true;
    syncs.length = 0;
    await store.sync();
    expect(syncs[0]).toBe(20);
    expect(seqs()).toEqual(range(1, 30).map((m) => m.seq));
  });
});

describe("room store threads", () => {
  const reply = (seq: number): MessageView => ({ ...message(seq), threadRootId: "m1" });

  it("opens a thread at its newest replies and loads earlier pages on demand, keeping live replies", async () => {
    const replies = Array.from({ length: 120 }, (_, i) => reply(i + 2)); // seqs 2..121
    const asked: { beforeSeq?: number; limit: number }[] = [];
    const store = new RoomStore(ROOM, "me", {
      history: async () => ({ messages: [], hasMore: false }),
      thread: async ({ beforeSeq, limit }) => {
        asked.push({ beforeSeq, limit });
        const before = replies.filter((r) => beforeSeq === undefined || r.seq < beforeSeq);
        return { root: { ...message(1), replyCount: replies.length }, replies: before.slice(-limit), hasMore: before.length > limit };
      },
    });
    const loaded = () => store.getSnapshot().thread!.replies.map((r) => r.seq);

    await store.openThread("m1");
    expect(loaded()).toEqual(replies.slice(-50).map((r) => r.seq));
    expect(store.getSnapshot().thread).toMatchObject({ hasEarlier: true, status: "ready" });
    store.receiveLive(reply(122), true);
    await store.loadEarlierReplies();
    await store.loadEarlierReplies();
    expect(asked).toEqual([{ limit: 50 }, { beforeSeq: 72, limit: 50 }, { beforeSeq: 22, limit: 50 }]);
    expect(loaded()).toEqual([...replies.map((r) => r.seq), 122]);
    expect(store.getSnapshot().thread).toMatchObject({ hasEarlier: false, loadingEarlier: false });
    await store.loadEarlierReplies(); // nothing earlier: no request
    expect(asked).toHaveLength(3);
  });
});
