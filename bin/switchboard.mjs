#!/usr/bin/env node
// The `switchboard` command (package.json "bin"). It runs cli/main.ts through tsx's loader, a runtime
// dependency, so the CLI needs no build step: `npx switchboard` in this repository, or anywhere after
// `npm link`. The repository's own tsconfig is used, whatever directory the command runs in.
import { fileURLToPath, URL } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../cli/main.ts");
await main();
