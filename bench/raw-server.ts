// W1's ceiling: a minimal Socket.IO server with no persistence, no auth and no validation. On `send`
// it gives the message the room's next seq, broadcasts `message:new` to the room (like Switchboard,
// before the ack) and acks. The message has the same shape and size as Switchboard's MessageView,
// so clients decode the same bytes. Run as a child process: `tsx bench/raw-server.ts`; prints its URL.
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { Server } from "socket.io";

const ROOM = "room:bench";
const httpServer = createServer();
const io = new Server(httpServer, { path: "/socket.io", maxHttpBufferSize: 256 * 1024, serveClient: false });
let seq = 0;
const createdBy = { id: randomUUID(), handle: "sender", displayName: "Sender", kind: "human" };

io.on("connection", (socket) => {
  void socket.join(ROOM);
  socket.on("send", (p: { roomId: string; body: string; clientMsgId: string }, ack: (r: unknown) => void) => {
    seq += 1;
    const message = {
      id: randomUUID().replace(/-/g, "").slice(0, 25),
      roomId: p.roomId,
      seq,
      kind: "text",
      author: createdBy,
      body: p.body,
      clientMsgId: p.clientMsgId,
      threadRootId: null,
      replyCount: 0,
      lastReplyAt: null,
      mentions: [],
      data: null,
      createdAt: new Date().toISOString(),
      editedAt: null,
      deletedAt: null,
      receipts: [],
      reactions: [],
      pinned: null,
    };
    io.to(ROOM).emit("message:new", { roomId: p.roomId, seq, message });
    ack({ ok: true, data: message });
  });
});

httpServer.listen(0, "127.0.0.1", () => {
  const address = httpServer.address();
  if (address && typeof address === "object") console.log(`raw server at http://127.0.0.1:${address.port}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void io.close(() => process.exit(0)));
