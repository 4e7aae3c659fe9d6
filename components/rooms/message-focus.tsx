"use client";
// Messages by keyboard, as in Slack. In each list (the timeline, a thread) one message is in the tab
// order: the one last focused, else the newest shown, so Shift+Tab from the composer lands on it. On a
// focused message ↑/↓ move to the previous or next one, Home/End to the first or last shown, Tab reaches
// its actions; T replies in thread, E edits, Delete deletes, Escape goes back to the composer.
// Which message is being edited lives here too, so that ↑ in an empty composer can start editing.
import { createContext, useContext, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

export type ListScope = "room" | "thread";

interface Editing {
  scope: ListScope;
  id: string;
}

export interface EditingState {
  editing: Editing | null;
  start: (scope: ListScope, id: string) => void;
  /** Ends the edit; focus goes back where it was when the edit began, or else to `fallback` (the message). */
  stop: (fallback: HTMLElement | null) => void;
}

const EditingContext = createContext<EditingState>({ editing: null, start: () => {}, stop: () => {} });

/** The room's editing state: made by the room (↑ in its composers starts an edit), handed to its lists. */
export function useEditingState(): EditingState {
  const [editing, setEditing] = useState<Editing | null>(null);
  const returnTo = useRef<Element | null>(null);
  return useMemo(
    () => ({
      editing,
      start: (scope: ListScope, id: string) => {
        returnTo.current = document.activeElement;
        setEditing({ scope, id });
      },
      stop: (fallback: HTMLElement | null) => {
        const back = returnTo.current;
        returnTo.current = null;
        // Before the editor unmounts, so that focus never drops to the page. An Edit button is gone by now.
        if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
        else fallback?.focus();
        setEditing(null);
      },
    }),
    [editing],
  );
}

export const useEditing = () => useContext(EditingContext);

const ListFocusContext = createContext<{ scope: ListScope; tabbableId: string | null; setActive: (id: string) => void }>({
  scope: "room",
  tabbableId: null,
  setActive: () => {},
});

/**
 * One list's keyboard focus and the room's editing state, for its rows. `rendered` are the ids of its
 * messages now in the DOM, oldest first; the element holding them carries `data-message-list`.
 */
export function ListFocusProvider({
  scope,
  rendered,
  editing,
  children,
}: {
  scope: ListScope;
  rendered: string[];
  editing: EditingState;
  children: ReactNode;
}) {
  const [active, setActive] = useState<string | null>(null);
  const tabbableId = active && rendered.includes(active) ? active : (rendered.at(-1) ?? null);
  const value = useMemo(() => ({ scope, tabbableId, setActive }), [scope, tabbableId]);
  return (
    <EditingContext.Provider value={editing}>
      <ListFocusContext.Provider value={value}>{children}</ListFocusContext.Provider>
    </EditingContext.Provider>
  );
}

export const useListFocus = () => useContext(ListFocusContext);

export function focusComposer(scope: ListScope): boolean {
  const box = document.querySelector<HTMLElement>(`[data-composer=${scope}]`);
  box?.focus();
  return box !== null;
}

/** ↑/↓/Home/End on a focused message: focus the message they lead to. */
export function moveMessageFocus(e: KeyboardEvent<HTMLElement>): boolean {
  if (!["ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) return false;
  const rows = Array.from(e.currentTarget.closest("[data-message-list]")?.querySelectorAll<HTMLElement>("[data-message-row]") ?? []);
  const at = rows.indexOf(e.currentTarget);
  const to = e.key === "Home" ? rows[0] : e.key === "End" ? rows.at(-1) : rows[at + (e.key === "ArrowDown" ? 1 : -1)];
  to?.focus();
  to?.scrollIntoView({ block: "nearest" });
  return true;
}
