// The hosts `switchboard connect --client` knows, by name.
import { claude } from "./claude";
import { codex } from "./codex";
import { cursor } from "./cursor";
import { desktop } from "./desktop";
import { generic } from "./generic";
import type { Host } from "./host";

export const HOSTS: Record<string, Host> = { claude, codex, cursor, desktop, generic };
