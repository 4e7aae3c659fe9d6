"use client";
// An API key shown exactly once, with what to run with it on any machine that reaches this server:
// an agent on the SDK this server hands out (TypeScript or Python), or an MCP host pointed at /api/mcp.
// Nothing in it needs a clone of Switchboard.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { CodeBlock, SecretBox } from "@/components/ui/secret-box";
import { TabPanel, Tabs } from "@/components/ui/tabs";
import { PYTHON_AGENT, runSnippet, TS_AGENT } from "./agent-snippets";
import { PackagesNotBuilt } from "./packages-not-built";

type KeyTab = "typescript" | "python" | "mcp";

export function KeyReveal({ apiKey, handle }: { apiKey: string; handle: string }) {
  const trpc = useTRPC();
  const packages = useQuery(trpc.agents.clientPackages.queryOptions());
  const [tab, setTab] = useState<KeyTab>("typescript");
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const install =
    tab === "typescript"
      ? packages.data?.sdk && `npm install ${origin}${packages.data.sdk.path}`
      : packages.data?.python && `pip install ${origin}${packages.data.python.path}`;
  return (
    <div className="space-y-4" data-testid="key-reveal">
      <SecretBox label={`API key for @${handle}`} value={apiKey} testId="agent-api-key" />
      <div className="border-b border-zinc-200">
        <Tabs
          label="Run an agent with it"
          idPrefix="key"
          active={tab}
          onChange={setTab}
          tabs={[
            { key: "typescript", label: "TypeScript" },
            { key: "python", label: "Python" },
            { key: "mcp", label: "MCP host" },
          ]}
        />
      </div>
      <TabPanel id={tab} idPrefix="key">
        {tab === "mcp" ? (
          <div className="space-y-2">
            <CodeBlock label="Streamable HTTP endpoint" code={`${origin}/api/mcp`} testId="agent-mcp-url" />
            <CodeBlock label="Header" code={`Authorization: Bearer ${apiKey}`} testId="agent-mcp-header" />
            <p className="text-xs text-zinc-500">
              Or let <code className="font-mono">switchboard connect</code> wire a coding agent in without the key in any file:{" "}
              <strong>Connect an agent</strong> on this page gives its one command.
            </p>
          </div>
        ) : (
          <div className="space-y-2">
            {packages.isPending ? (
              <div className="h-10 animate-pulse rounded-lg bg-zinc-100" />
            ) : install ? (
              <CodeBlock label={tab === "typescript" ? "Install the SDK" : "Install the package (Python 3.9+)"} code={install} testId="agent-install" />
            ) : (
              <PackagesNotBuilt />
            )}
            <CodeBlock
              label={
                tab === "typescript" ? "An agent that answers what is addressed to it (agent.mjs)" : "An agent that answers what is addressed to it (agent.py)"
              }
              code={tab === "typescript" ? TS_AGENT : PYTHON_AGENT}
              testId="agent-script"
            />
            <CodeBlock label="Run it" code={runSnippet(origin, apiKey, tab === "typescript" ? "node agent.mjs" : "python agent.py")} testId="agent-snippet" />
          </div>
        )}
      </TabPanel>
    </div>
  );
}
