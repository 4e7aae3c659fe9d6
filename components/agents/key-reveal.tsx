"use client";
// An API key shown exactly once, with the command that runs the example agent with it.
import { CodeBlock, SecretBox } from "@/components/ui/secret-box";

export function runSnippet(origin: string, apiKey: string): string {
  return `SWITCHBOARD_URL=${origin} SWITCHBOARD_API_KEY=${apiKey} npx tsx examples/echo-agent.ts`;
}

export function KeyReveal({ apiKey, handle }: { apiKey: string; handle: string }) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <div className="space-y-4" data-testid="key-reveal">
      <SecretBox label={`API key for @${handle}`} value={apiKey} testId="agent-api-key" />
      <CodeBlock label="Run it" code={runSnippet(origin, apiKey)} testId="agent-snippet" />
      <p className="text-xs text-zinc-500">
        The example agent answers what is addressed to it. Any Socket.IO client can use the key: see <code className="font-mono">docs/protocol.md</code>.
      </p>
    </div>
  );
}
