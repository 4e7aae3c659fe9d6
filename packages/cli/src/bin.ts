// The `switchboard` command as installed (the package's "bin": this file, bundled to dist/switchboard.mjs).
import { main } from "./main";

await main();
