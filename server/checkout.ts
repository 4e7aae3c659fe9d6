// The checkout the server runs from. Resolved from this file, one level below the checkout's root, at
// the same depth as the bundle the integration tests start (.test-server/index.mjs), so both find it.
import path from "node:path";

export const CHECKOUT_ROOT = path.resolve(import.meta.dirname, "..");
