// End-to-end tests: the production build served by the real server (server/index.ts) on a fresh
// SQLite database, driven with Debian's Chromium. Run `npm run build` first (`npm test` does).
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { e2eDataDir } from "./tests/e2e/data-dir";

// Two servers, each with its own database and workspace, run side by side (one worker each): the specs
// of one server run one after another and share its workspace (people, rooms, limits), so what one
// leaves behind another may see; the other server's specs never do. Specs are dealt by measured time
// so that both halves end together; a new spec goes where it keeps them even.
// Measured in CI (2026-12-07): the first server's specs about 7.8 min, the second's 3.6 min before the
// last three moved over (turns, turns-frameworks, xss: about 55 s; they make their own people and rooms,
// and run after the second server's other specs, which look at whole pages).
const SECOND = ["accessibility", "alerts", "files", "phone", "profile", "reactions", "shared-channels", "turns", "turns-frameworks", "xss", "workspaces"].map(
  (name) => `**/${name}.spec.ts`,
);
// The second server lets anyone create a workspace (WORKSPACE_SIGNUP=open), for workspaces.spec.ts; its
// other specs share the workspace its first sign-up creates, as the first server's do.
const servers = [
  { name: "chromium", port: Number(process.env.E2E_PORT ?? 3199), match: { testIgnore: SECOND }, signUp: "invite" },
  { name: "chromium-2", port: Number(process.env.E2E_PORT_2 ?? 3198), match: { testMatch: SECOND }, signUp: "open" },
].map((server) => ({ ...server, baseURL: `http://127.0.0.1:${server.port}`, dataDir: e2eDataDir(server.port) }));

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: servers.length,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  outputDir: `test-results/${servers[0].port}`, // runs on different ports never share traces
  use: {
    // Tracing doubles a test's time (measured: usage.spec 28 s → 46 s), and CI keeps only the printed log,
    // so it is off unless asked for: E2E_TRACE=1 keeps a trace of every failing test.
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: servers.map((server) => ({
    name: server.name,
    ...server.match,
    workers: 1,
    use: { ...devices["Desktop Chrome"], viewport: { width: 1440, height: 900 }, baseURL: server.baseURL },
  })),
  webServer: servers.map(({ port, baseURL, dataDir, signUp }) => ({
    // A fresh database and data directory on every run; the first sign-up creates the workspace.
    command: `rm -rf "${dataDir}" && mkdir -p "${dataDir}" && exec node node_modules/.bin/tsx server/index.ts`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `file:${path.join(dataDir, "e2e.db")}`,
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      WORKSPACE_SIGNUP: signUp,
      AUTH_URL: baseURL,
    },
  })),
});
