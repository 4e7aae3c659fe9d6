// Where an e2e server keeps its database, files and the people's stored sign-ins: one directory per
// port (playwright.config.ts starts a server on each), emptied when that server starts.
import os from "node:os";
import path from "node:path";

export const e2eDataDir = (port: number | string): string => path.join(os.tmpdir(), `switchboard-e2e-${port}`);
