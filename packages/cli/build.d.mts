import type { BuildOptions } from "esbuild";

/** esbuild's options for the CLI bundle: `outfile` where it goes. */
export function cliBuildOptions(outfile: string): BuildOptions;
