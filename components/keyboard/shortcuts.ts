// Every keyboard shortcut, as the shortcuts sheet (and README's Keyboard section) lists them. A key is
// "Mod" (Ctrl, ⌘ on a Mac), "Alt" (⌥ on a Mac), "Shift", or the key's own name.

export interface Shortcut {
  /** The keys pressed together; a list in the list is alternatives (["Alt", ["↑", "↓"]]: Alt+↑ or Alt+↓). */
  keys: (string | string[])[];
  label: string;
}

export const SHORTCUT_GROUPS: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: "Anywhere",
    shortcuts: [
      { keys: ["Mod", "K"], label: "Jump to a conversation" },
      { keys: ["Mod", "Shift", "F"], label: "Search messages" },
      { keys: ["Mod", "Shift", "Y"], label: "Needs you: questions waiting for you" },
      { keys: ["Alt", ["↑", "↓"]], label: "Previous or next conversation" },
      { keys: ["Alt", "Shift", ["↑", "↓"]], label: "Previous or next unread conversation" },
      { keys: ["?"], label: "Show these shortcuts (outside a text field)" },
      { keys: ["Esc"], label: "Close a dialog, a menu or the thread" },
    ],
  },
  {
    title: "Composer",
    shortcuts: [
      { keys: ["Enter"], label: "Send" },
      { keys: ["Shift", "Enter"], label: "New line" },
      { keys: ["↑"], label: "Edit your last message (composer empty)" },
      { keys: ["@"], label: "Mention someone" },
      { keys: ["Shift", "Tab"], label: "Go to the messages" },
    ],
  },
  {
    title: "A focused message",
    shortcuts: [
      { keys: [["↑", "↓"]], label: "Previous or next message" },
      { keys: [["Home", "End"]], label: "First or last message shown" },
      { keys: ["Tab"], label: "Its actions: reply, react, pin, edit, delete" },
      { keys: ["T"], label: "Reply in thread" },
      { keys: ["E"], label: "Edit your message" },
      { keys: ["Delete"], label: "Delete the message" },
      { keys: ["R"], label: "Add a reaction" },
      { keys: ["P"], label: "Pin or unpin the message" },
      { keys: ["U"], label: "Mark unread from here" },
      { keys: ["Esc"], label: "Back to the composer" },
    ],
  },
  {
    title: "Editing a message",
    shortcuts: [
      { keys: ["Enter"], label: "Save" },
      { keys: ["Esc"], label: "Cancel" },
    ],
  },
];
