// What a keystroke means for the app's shortcuts: whether it was typed into a text field (then it is
// text, not a shortcut), whether an input method is composing it, and how a platform names its keys.
import { useSyncExternalStore } from "react";

/** A field that takes typing: a text input, a textarea, a select or anything contenteditable. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["button", "checkbox", "radio", "range", "color", "file", "submit", "reset", "image"].includes(target.type);
}

/** A room's or a thread's message box with nothing typed in it: room shortcuts (Alt+arrows) work there, as in
 *  Slack; with a draft they are left to the text (on a Mac ⌥↑ moves the caret), and leaving would lose it. */
export function isEmptyComposer(target: EventTarget | null): boolean {
  return target instanceof HTMLTextAreaElement && target.dataset.composer !== undefined && target.value === "";
}

/** An input method (Japanese, Chinese, Korean…) is still composing: the key belongs to it. */
export function isComposing(e: KeyboardEvent | { isComposing?: boolean; keyCode?: number }): boolean {
  return e.isComposing === true || e.keyCode === 229;
}

export const anyDialogOpen = (): boolean => document.querySelector("dialog[open]") !== null;

const isMacPlatform = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** true on macOS (Option and Command), false elsewhere (Alt and Ctrl); false while rendering on the server. */
export function useIsMac(): boolean {
  return useSyncExternalStore(
    () => () => {},
    isMacPlatform,
    () => false,
  );
}

/** A key's name as this platform prints it on its keyboard. */
export function keyLabel(key: "Alt" | "Mod" | "Shift", mac: boolean): string {
  if (key === "Alt") return mac ? "⌥" : "Alt";
  if (key === "Mod") return mac ? "⌘" : "Ctrl";
  return mac ? "⇧" : "Shift";
}
