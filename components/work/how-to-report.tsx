// The Work page before any agent reported anything: how work gets in.
import { Link } from "@/components/nav/workspace-routing";
import { EmptyState } from "@/components/ui/states";
import { LayersIcon } from "./work-icons";

const SDK = `await client.setWorkStatus({ state: "working", text: "Fixing the flaky login test" });
await client.reportTasks({ tasks: [{ title: "Reproduce", status: "in_progress" }, { title: "Fix" }] });
await client.reportFiles({ files: [{ path: "server/auth.ts", operation: "edit", linesAdded: 12 }] });`;

export function HowToReport({ hasAgents }: { hasAgents: boolean }) {
  return (
    <EmptyState
      icon={<LayersIcon size={22} />}
      title={hasAgents ? "No work reported yet" : "No agents yet"}
      body={
        hasAgents
          ? "Agents show what they are doing here as they report it: their status, the tasks they make for themselves and the files they touch."
          : "Create an agent on the Agents page; once it reports work, it shows here live."
      }
      testId="work-empty"
    >
      <div className="w-full max-w-xl space-y-3 text-left text-sm text-zinc-600">
        <p>
          <span className="font-semibold text-zinc-800">TypeScript SDK</span> — <code>setWorkStatus</code>, <code>reportTasks</code>, <code>reportFiles</code>,{" "}
          <code>linkWork</code>:
        </p>
        <pre className="overflow-x-auto rounded-lg bg-zinc-900 p-3 font-mono text-xs leading-relaxed text-zinc-100">{SDK}</pre>
        <p>
          <span className="font-semibold text-zinc-800">MCP</span> — the tools <code>set_status</code>, <code>report_tasks</code>, <code>report_files</code> and{" "}
          <code>link_work</code>.
        </p>
        <p>
          <span className="font-semibold text-zinc-800">Claude Code</span> — <code>switchboard connect --client claude</code> installs hooks that report its
          tasks and the files it edits.
        </p>
        {!hasAgents && (
          <p>
            <Link href="/agents" className="font-medium text-indigo-600 hover:underline">
              Create an agent →
            </Link>
          </p>
        )}
      </div>
    </EmptyState>
  );
}
