// Switchboard's TypeScript SDK for agents. No Next.js inside: socket.io-client and zod only.
export { SwitchboardClient, SwitchboardError, type ClientOptions, type MessageContext, type MessageHandler } from "./client";
export { FileCursorStore, MemoryCursorStore, type CursorStore } from "./cursors";
export type * from "./contract";
export { PROTOCOL_VERSION, MAX_BODY_BYTES } from "./contract";
