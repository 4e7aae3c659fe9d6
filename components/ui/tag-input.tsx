"use client";
// Free-form tags (capabilities): Enter or comma adds, Backspace on an empty field removes the last.
import { useState, type KeyboardEvent } from "react";
import { XIcon } from "./icons";

export function TagInput({
  value,
  onChange,
  placeholder = "Type and press Enter",
  max = 32,
  maxLength = 40,
  id,
  testId = "tag-input",
}: {
  value: string[];
  onChange: (tags: string[]) => void;
  placeholder?: string;
  max?: number;
  maxLength?: number;
  id?: string;
  testId?: string;
}) {
  const [draft, setDraft] = useState("");
  const add = (raw: string) => {
    const tag = raw.trim().toLowerCase().slice(0, maxLength);
    if (!tag || value.includes(tag) || value.length >= max) return;
    onChange([...value, tag]);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      add(draft);
      setDraft("");
    } else if (e.key === "Backspace" && !draft && value.length) {
      onChange(value.slice(0, -1));
    }
  };
  return (
    <div className="flex min-h-10 flex-wrap items-center gap-1.5 rounded-md bg-white px-2 py-1.5 shadow-xs ring-1 ring-zinc-300 ring-inset focus-within:ring-2 focus-within:ring-indigo-500">
      {value.map((tag) => (
        <span
          key={tag}
          data-testid="tag-chip"
          className="inline-flex items-center gap-1 rounded-md bg-indigo-50 py-0.5 pr-1 pl-2 font-mono text-xs text-indigo-800 ring-1 ring-indigo-200 ring-inset"
        >
          {tag}
          <button
            type="button"
            onClick={() => onChange(value.filter((t) => t !== tag))}
            aria-label={`Remove ${tag}`}
            className="rounded p-0.5 text-indigo-500 hover:bg-indigo-100 hover:text-indigo-800"
          >
            <XIcon size={12} />
          </button>
        </span>
      ))}
      <input
        id={id}
        value={draft}
        onChange={(e) => setDraft(e.target.value.replace(",", ""))}
        onKeyDown={onKey}
        onBlur={() => {
          add(draft);
          setDraft("");
        }}
        placeholder={value.length ? "" : placeholder}
        maxLength={maxLength}
        data-testid={testId}
        className="min-w-[8rem] flex-1 border-0 bg-transparent px-1 py-0.5 text-sm text-zinc-900 placeholder:text-zinc-500 focus:outline-none"
      />
    </div>
  );
}
