import type { FormEvent, ReactNode } from "react";

/** A settings form: title and description, its fields, and a footer with its actions. */
export function Card({
  title,
  description,
  children,
  footer,
  onSubmit,
  testId,
}: {
  title: string;
  description: string;
  children: ReactNode;
  footer: ReactNode;
  onSubmit: (e: FormEvent) => void;
  testId: string;
}) {
  return (
    <form onSubmit={onSubmit} className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs" data-testid={testId}>
      <div className="p-5">
        <h2 className="text-[15px] font-semibold text-zinc-900">{title}</h2>
        <p className="mt-0.5 mb-4 text-sm text-zinc-500">{description}</p>
        {children}
      </div>
      <div className="flex items-center justify-end gap-3 border-t border-zinc-100 bg-zinc-50/60 px-5 py-3">{footer}</div>
    </form>
  );
}
