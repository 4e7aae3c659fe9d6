// A remote A2A agent as its owner sees it: the agent, where its card is, what the card says, whether
// it has a credential (never the credential itself), and how its bridge is doing.
import type { AgentView } from "@switchboard/sdk/contract";

export interface A2aRemoteView {
  agent: AgentView;
  cardUrl: string;
  card: { name: string; description: string; version: string; streaming: boolean; skills: { id: string; name: string }[] };
  /** How the credential is sent: `bearer` (Authorization: Bearer …) or the header's name; null: none. */
  credential: { kind: "bearer" | "header"; header: string } | null;
  enabled: boolean;
  /** Why the remote could not be reached last (cleared when it answers again). */
  lastError: string | null;
  /** A server process runs its bridge now. */
  running: boolean;
}

interface RemoteRow {
  cardUrl: string;
  card: unknown;
  credentialKind: string | null;
  enabled: boolean;
  lastError: string | null;
  leaseUntil: Date | null;
}

interface CardShape {
  name?: string;
  description?: string;
  version?: string;
  capabilities?: { streaming?: boolean };
  skills?: { id?: string; name?: string }[];
}

export function presentA2aRemote(row: RemoteRow, agent: AgentView, now = new Date()): A2aRemoteView {
  const card = (row.card ?? {}) as CardShape;
  const kind = row.credentialKind;
  return {
    agent,
    cardUrl: row.cardUrl,
    card: {
      name: card.name ?? "",
      description: card.description ?? "",
      version: card.version ?? "",
      streaming: card.capabilities?.streaming === true,
      skills: (card.skills ?? []).map((s) => ({ id: s.id ?? "", name: s.name ?? s.id ?? "" })),
    },
    credential: !kind ? null : kind === "bearer" ? { kind: "bearer", header: "Authorization" } : { kind: "header", header: kind.slice("header:".length) },
    enabled: row.enabled,
    lastError: row.lastError,
    running: row.leaseUntil !== null && row.leaseUntil > now,
  };
}
