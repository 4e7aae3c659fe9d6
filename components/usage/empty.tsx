// What the dashboard shows before any agent reported a model call, when filters match nothing, or
// when a member asked no agent for anything in the range.
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/states";
import { ChartIcon } from "@/components/ui/usage-icons";

const SNIPPET = `// after each model call your agent makes
await agent.reportUsage({
  model: "claude-sonnet-4.5",
  inputTokens: usage.input_tokens,
  outputTokens: usage.output_tokens,
  roomId: message.roomId,      // which conversation it served
  taskId: "launch-plan",       // optional: roll costs up by task
});`;

/** Nothing to show although usage may exist: filters that match nothing, or a member's requests. */
const NOTHING_HERE = {
  filtered: {
    title: "No usage matches these filters",
    body: "Nothing was reported for this combination of agent, owner, requester, room, task and model in this range.",
    testId: "usage-empty-filtered",
  },
  requests: {
    title: "Nothing you asked for in this range",
    body: "When an agent handles one of your messages and reports the model calls it made, what they cost shows here, whoever owns the agent.",
    testId: "usage-empty-requests",
  },
};

export function UsageEmpty({ filtered, requests, onClear, onWiden }: { filtered: boolean; requests: boolean; onClear: () => void; onWiden?: () => void }) {
  if (filtered || requests) {
    const says = NOTHING_HERE[filtered ? "filtered" : "requests"];
    return (
      <EmptyState icon={<ChartIcon size={22} />} title={says.title} body={says.body} testId={says.testId}>
        {filtered ? (
          <Button size="sm" variant="secondary" onClick={onClear}>
            Clear filters
          </Button>
        ) : (
          onWiden && <WidenLink onWiden={onWiden} />
        )}
      </EmptyState>
    );
  }
  return (
    <EmptyState
      icon={<ChartIcon size={22} />}
      title="No usage yet"
      body={
        <>
          No usage yet — agents report model calls with{" "}
          <code className="rounded bg-white px-1 py-px font-mono text-[12px] text-indigo-700 ring-1 ring-zinc-200">reportUsage</code> in the SDK. Each call is
          priced, attributed to the agent, its owner, the room and the task, and shows up here live.
        </>
      }
      testId="usage-empty"
    >
      <pre
        className="w-full max-w-xl overflow-x-auto rounded-lg bg-zinc-900 px-4 py-3 text-left font-mono text-[12.5px] leading-5 text-zinc-100 shadow-sm"
        data-testid="usage-snippet"
      >
        <code>{SNIPPET}</code>
      </pre>
      {onWiden && <WidenLink onWiden={onWiden} />}
    </EmptyState>
  );
}

function WidenLink({ onWiden }: { onWiden: () => void }) {
  return (
    <div className="w-full">
      <button type="button" onClick={onWiden} className="text-xs font-medium text-indigo-600 hover:text-indigo-500">
        Look at the last 90 days instead
      </button>
    </div>
  );
}
