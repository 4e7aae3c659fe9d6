// The checkout the server runs from. Resolved from this file, one level below the checkout's root, at
// the same depth as the bundle the integration tests start (.test-server/index.mjs), so both find it.
// A function, not a constant: Next.js bundles the tRPC router (server components call it), where this
// file has no directory of its own, and nothing there asks for it.
import path from "node:path";
import { fileURLToPath } from "node:url";

export function checkoutRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
}
