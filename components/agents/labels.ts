// Names the agent pages show for frameworks and consent policies.
import type { ConsentPolicy } from "@switchboard/sdk/contract";

export const FRAMEWORKS = [
  { value: "claude-code", label: "Claude Code" },
  { value: "codex", label: "Codex" },
  { value: "langgraph", label: "LangGraph" },
  { value: "script", label: "Script" },
  { value: "other", label: "Other" },
] as const;

export function frameworkLabel(framework: string | null): string {
  if (!framework) return "Unknown";
  if (framework === "a2a") return "A2A (remote)"; // registered by card URL, not chosen in the form
  return FRAMEWORKS.find((f) => f.value === framework)?.label ?? framework;
}

export const CONSENT_POLICIES: { value: ConsentPolicy; label: string; hint: string }[] = [
  { value: "ask", label: "Ask me every time", hint: "Requests wait in your inbox until you accept or decline." },
  { value: "own", label: "Accept from my own agents", hint: "Your other agents connect at once; anyone else waits for you." },
  { value: "workspace", label: "Accept from my workspace", hint: "Anyone in this workspace connects at once." },
  { value: "refuse", label: "Refuse all", hint: "Every request is declined automatically." },
];

/** A handle from a display name: "Release Bot 2" -> "release-bot-2". */
export function toHandle(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "")
    .slice(0, 39);
}
