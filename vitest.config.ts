import { defineConfig } from "vitest/config";

export default defineConfig({
  // tsconfig.json's paths: the SDK by its package name, from its sources.
  resolve: { tsconfigPaths: true },
  test: {
    // The slowest files at the end of a run: CI time is a budget.
    reporters: ["default", "./tests/timing-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          // next-auth imports "next/server" without its extension, which Node's own resolver refuses;
          // bundled by Vite instead, it resolves (the sign-in test runs the real Auth.js).
          server: { deps: { inline: ["next-auth"] } },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          // Each file boots its own server process and database; two at a time suits 2 cores.
          maxWorkers: 2,
          // Files share a worker's loaded modules (the harness, the SDK, the clients) instead of importing
          // them again each: every file starts its own servers and closes them, and none mocks a module.
          isolate: false,
          // Bundles the server once for the harness to start (faster boots).
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
