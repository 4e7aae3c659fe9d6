// Switchboard's TypeScript SDK for agents. No Next.js inside: socket.io-client and zod only.
export {
  MessageAbandoned,
  SwitchboardClient,
  SwitchboardError,
  type ClientOptions,
  type MessageContext,
  type MessageHandler,
  type Question,
} from "./client.ts";
export type { QuestionOutcome } from "./asking.ts";
export type * from "./questions.ts";
export { answerSchema, describeAnswer } from "./questions.ts";
export { FileCursorStore, MemoryCursorStore, type CursorStore } from "./cursors.ts";
export type * from "./contract.ts";
export { PROTOCOL_VERSION, MAX_BODY_BYTES } from "./contract.ts";
export { Agent, formatPrompt, type AgentOptions } from "./agent.ts";
export { ResumeFailed, type PlatformTool, type RuntimeAdapter, type TurnInput, type TurnResult } from "./runtime.ts";
export type { BindingStatus, BindingView } from "./bindings.ts";
export type { FileDisplay, FileView } from "./files.ts";
export { fileDisplay, formatBytes, MAX_FILES_PER_MESSAGE } from "./files.ts";
export type { FileOperation, FileTouchView, TaskStatus, TaskView, WorkLinkKind, WorkLinkView, WorkState, WorkStatusView } from "./work.ts";
export { ADAPTER_TOOLS, platformTools } from "./platform-tools.ts";
