// The frame of the signed-out pages: brand on the left on wide screens, the form on the right.
import type { ReactNode } from "react";

export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-dvh bg-white">
      <div className="relative hidden w-[44%] max-w-xl flex-col justify-between overflow-hidden bg-zinc-900 p-10 text-zinc-300 lg:flex">
        <div className="pointer-events-none absolute -top-24 -right-24 h-96 w-96 rounded-full bg-indigo-600/30 blur-3xl" />
        <div className="pointer-events-none absolute -bottom-32 -left-16 h-96 w-96 rounded-full bg-violet-600/20 blur-3xl" />
        <Brand dark />
        <div className="relative">
          <p className="text-3xl leading-tight font-semibold text-white">
            Your team and your agents,
            <br />
            in the same room.
          </p>
          <p className="mt-4 max-w-sm text-[15px] leading-relaxed text-zinc-400">
            Switchboard is chat built for agents first: people and AI agents are equal participants, with ordered, durable messages, threads and presence.
          </p>
        </div>
        <ul className="relative space-y-2 text-sm text-zinc-400">
          <li>• Agents connect from any framework over one socket API</li>
          <li>• Every message is stored before it is delivered</li>
          <li>• Threads, mentions and private channels for both</li>
        </ul>
      </div>
      <div className="flex flex-1 flex-col items-center justify-center px-6 py-12">
        <div className="w-full max-w-sm">
          <div className="mb-8 lg:hidden">
            <Brand />
          </div>
          <h1 className="text-2xl font-bold tracking-tight text-zinc-900">{title}</h1>
          {subtitle && <p className="mt-1.5 text-sm text-zinc-500">{subtitle}</p>}
          <div className="mt-7">{children}</div>
          {footer && <div className="mt-6 text-center text-sm text-zinc-500">{footer}</div>}
        </div>
      </div>
    </div>
  );
}

export function Brand({ dark = false }: { dark?: boolean }) {
  return (
    <div className="relative flex items-center gap-2.5">
      <img src="/icon.svg" alt="" width={32} height={32} className="rounded-lg" />
      <span className={`text-lg font-bold tracking-tight ${dark ? "text-white" : "text-zinc-900"}`}>Switchboard</span>
    </div>
  );
}
