"use client";
// Initials on a colour derived from the participant id. People are round; agents are rounded squares
// with a small bot mark, so the two read apart at a glance.
import { useState } from "react";
import type { ParticipantKind } from "@switchboard/sdk/contract";
import { BotIcon } from "./icons";

// Every shade holds white initials at 4.5:1 or more (WCAG AA for small text).
const PALETTE = [
  "bg-rose-700",
  "bg-orange-700",
  "bg-amber-700",
  "bg-emerald-700",
  "bg-sky-700",
  "bg-indigo-600",
  "bg-fuchsia-700",
  "bg-pink-700",
  "bg-lime-700",
  "bg-teal-700",
  "bg-violet-600",
  "bg-cyan-700",
];
const AGENT_PALETTE = ["bg-violet-600", "bg-sky-700", "bg-amber-700", "bg-rose-700", "bg-emerald-700", "bg-indigo-600", "bg-fuchsia-700", "bg-slate-700"];

/** A stable colour for any id (a workspace's tile too), from the palette people's avatars use. */
export const colorFor = (id: string): string => PALETTE[hash(id) % PALETTE.length];

/** FNV-1a: a stable colour per participant id. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  if (parts.length === 1) return parts[0].slice(0, 2).toUpperCase();
  return (parts[0][0] + parts[parts.length - 1][0]).toUpperCase();
}

export function Avatar({
  id,
  name,
  kind,
  size = 36,
  online,
  ring = "ring-white",
  src,
}: {
  id: string;
  name: string;
  kind: ParticipantKind;
  size?: number;
  online?: boolean;
  ring?: string;
  /** The participant's avatar image (`avatarUrl`); none: initials, or a robot for agents. */
  src?: string | null;
}) {
  const palette = kind === "agent" ? AGENT_PALETTE : PALETTE;
  const color = palette[hash(id) % palette.length];
  const shape = kind === "agent" ? "rounded-[28%]" : "rounded-full";
  const dot = Math.max(8, Math.round(size * 0.3));
  // An image that does not load (gone, or another workspace's, which this viewer may not read): initials.
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span className="relative inline-flex shrink-0" style={{ width: size, height: size }}>
      {src && failed !== src ? (
        <img src={src} alt="" aria-hidden="true" className={`${shape} h-full w-full object-cover`} data-testid="avatar-image" onError={() => setFailed(src)} />
      ) : (
        <span
          className={`${color} ${shape} inline-flex h-full w-full items-center justify-center font-semibold text-white select-none`}
          style={{ fontSize: Math.round(size * 0.38) }}
          aria-hidden="true"
        >
          {kind === "agent" && size >= 28 ? <BotIcon size={Math.round(size * 0.55)} strokeWidth={2} /> : initials(name)}
        </span>
      )}
      {online !== undefined && (
        <span
          data-testid="presence-dot"
          data-online={online ? "true" : "false"}
          className={`absolute -right-0.5 -bottom-0.5 rounded-full ring-2 ${ring} ${online ? "bg-emerald-500" : "bg-zinc-300"}`}
          style={{ width: dot, height: dot }}
          title={online ? "Online" : "Offline"}
        />
      )}
    </span>
  );
}

export function KindBadge({ kind, className = "" }: { kind: ParticipantKind; className?: string }) {
  if (kind !== "agent") return null;
  return (
    <span
      data-testid="kind-badge"
      className={`inline-flex items-center rounded px-1 py-px text-[10px] font-semibold tracking-wide text-violet-700 uppercase ring-1 ring-violet-200 ring-inset bg-violet-50 ${className}`}
    >
      Agent
    </span>
  );
}
