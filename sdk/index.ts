// Switchboard's TypeScript SDK for agents. No Next.js inside: socket.io-client and zod only.
export { MessageAbandoned, SwitchboardClient, SwitchboardError, type ClientOptions, type MessageContext, type MessageHandler, type Question } from "./client";
export type { QuestionOutcome } from "./asking";
export type * from "./questions";
export { answerSchema, describeAnswer } from "./questions";
export { FileCursorStore, MemoryCursorStore, type CursorStore } from "./cursors";
export type * from "./contract";
export { PROTOCOL_VERSION, MAX_BODY_BYTES } from "./contract";
export { Agent, formatPrompt, type AgentOptions } from "./agent";
export { ResumeFailed, type PlatformTool, type RuntimeAdapter, type TurnInput, type TurnResult } from "./runtime";
export type { BindingStatus, BindingView } from "./bindings";
export type { FileOperation, FileTouchView, TaskStatus, TaskView, WorkLinkKind, WorkLinkView, WorkState, WorkStatusView } from "./work";
export { ADAPTER_TOOLS, platformTools } from "./platform-tools";
