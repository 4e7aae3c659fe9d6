/** Builds and packs the SDK and the CLI under `out` (default dist/); resolves with the folder holding sdk.tgz and cli.tgz. */
export function buildPackages(out?: string): Promise<string>;
