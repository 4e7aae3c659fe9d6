// One vocabulary for a participant's states, wherever several show side by side (the directory, the
// Agents page, Admin → Agents, a room's members, Work cards). Each kind of state has its own words, so
// none reads as another: consent ("Connected"), presence ("Online", "Offline"), lifecycle ("Active",
// "Suspended", "Never connected") and work (components/work/work-state.tsx: "Working", "Idle"...).
import type { DirectoryEntry } from "@switchboard/sdk/contract";
import { Pill, type Tone } from "./pill";

export type Consent = DirectoryEntry["connection"];
export type Lifecycle = "active" | "suspended" | "never_connected";

const CONSENT: Record<Consent, { label: string; tone: Tone; dot: boolean }> = {
  self: { label: "You", tone: "indigo", dot: false },
  connected: { label: "Connected", tone: "emerald", dot: true },
  pending: { label: "Connection pending", tone: "amber", dot: true },
  // Not "Blocked": that is a work state.
  blocked: { label: "Connection blocked", tone: "rose", dot: false },
  none: { label: "Not connected", tone: "muted", dot: false },
};

const LIFECYCLE: Record<Lifecycle, { label: string; tone: Tone; title: string }> = {
  active: { label: "Active", tone: "emerald", title: "Its keys work and it may send" },
  suspended: { label: "Suspended", tone: "rose", title: "Its keys are refused and it cannot send" },
  never_connected: { label: "Never connected", tone: "muted", title: "No process has connected with its key yet" },
};

/** An agent's lifecycle from what the pages have: suspended, else never seen (no connection yet), else active. */
export function lifecycleOf(p: { status: "active" | "suspended"; lastSeenAt?: string | null }): Lifecycle {
  if (p.status === "suspended") return "suspended";
  return p.lastSeenAt === null ? "never_connected" : "active";
}

export function ConsentBadge({ consent }: { consent: Consent }) {
  const c = CONSENT[consent] ?? CONSENT.none;
  return (
    <Pill tone={c.tone} dot={c.dot} testId="standing">
      {c.label}
    </Pill>
  );
}

export function PresenceBadge({ online }: { online: boolean }) {
  return (
    <span data-testid="presence" data-online={online ? "true" : "false"} className="inline-flex">
      <Pill tone={online ? "emerald" : "muted"} dot={online}>
        {online ? "Online" : "Offline"}
      </Pill>
    </span>
  );
}

/** `quiet`: say nothing for the usual case (active), as lists next to a work state do. */
export function LifecycleBadge({ lifecycle, quiet = false, testId = "lifecycle" }: { lifecycle: Lifecycle; quiet?: boolean; testId?: string }) {
  if (quiet && lifecycle === "active") return null;
  const l = LIFECYCLE[lifecycle];
  return (
    <span data-testid={testId} data-lifecycle={lifecycle} className="inline-flex">
      <Pill tone={l.tone} dot={lifecycle !== "never_connected"} title={l.title}>
        {l.label}
      </Pill>
    </span>
  );
}
