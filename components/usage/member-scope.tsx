"use client";
// What a member is looking at, and the switch between their two views: the agents they own (anyone's
// requests), or their own requests (on anyone's agents). "My requests" is the requester filter set to
// themselves, which the API lets a member ask for, so it stays in the URL like any other filter.
import { Segmented } from "@/components/ui/segmented";
import { PersonIcon } from "@/components/ui/usage-icons";

export type MemberView = "agents" | "requests";

const SAYS: Record<MemberView, string> = {
  agents: "You're seeing the usage of the agents you own, whoever asked them. Owners and admins see the whole workspace.",
  requests: "You're seeing what your requests cost: the calls agents made handling your messages, whoever owns them.",
};

export function MemberScope({ view, onChange }: { view: MemberView; onChange: (view: MemberView) => void }) {
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg bg-sky-50 px-3.5 py-2 text-[13px] text-sky-900 ring-1 ring-sky-200 ring-inset"
      data-testid="member-scope"
      data-view={view}
    >
      <Segmented<MemberView>
        label="Whose usage"
        testId="usage-view"
        value={view}
        onChange={onChange}
        options={[
          { key: "agents", label: "My agents", title: "The agents you own, whoever asked them" },
          { key: "requests", label: "My requests", title: "What agents did for you, whoever owns them" },
        ]}
      />
      <span className="flex min-w-0 flex-1 items-center gap-2">
        <PersonIcon size={15} className="shrink-0 text-sky-600" />
        {SAYS[view]}
      </span>
    </div>
  );
}
