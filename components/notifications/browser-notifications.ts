// The browser's Notification API, in one place: whether it exists here, asking for permission (only
// ever from a click: browsers ignore or penalize a prompt nobody asked for), and raising one that
// focuses the tab and opens what it is about when clicked. Questions to people use it too.

export type DesktopPermission = NotificationPermission | "unsupported";

export function desktopPermission(): DesktopPermission {
  return typeof window !== "undefined" && "Notification" in window ? Notification.permission : "unsupported";
}

/** Asks for permission; call it only from a user's click. Resolves with what the person chose. */
export async function requestDesktopPermission(): Promise<DesktopPermission> {
  if (desktopPermission() === "unsupported") return "unsupported";
  return Notification.requestPermission();
}

export interface BrowserNotice {
  title: string;
  body: string;
  /** Opened (in this tab) when the notification is clicked. */
  url: string;
  /** One notification per tag: a newer one with the same tag replaces it instead of piling up. */
  tag: string;
  /** How to open `url` (the app's router); a full navigation otherwise. */
  open?: (url: string) => void;
}

/** Raises a notification if the person allowed them; false when it could not be shown. */
export function notifyInBrowser({ title, body, url, tag, open }: BrowserNotice): boolean {
  if (desktopPermission() !== "granted") return false;
  try {
    const notice = new Notification(title, { body, tag });
    notice.onclick = () => {
      window.focus();
      if (open) open(url);
      else window.location.assign(url);
      notice.close();
    };
    return true;
  } catch {
    // Some mobile browsers expose the constructor but allow notifications only from a service worker.
    return false;
  }
}
