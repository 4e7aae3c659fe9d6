// The layering, checked by `npm run lint` (dependency-cruiser): no import cycles anywhere, and
// nothing imports a layer above it. From the top:
//   transports   server/{app.ts,index.ts,trpc,socket,bridges,http,auth}, app/, components/
//   services     server/services/<domain>/, themselves in the order of DOMAINS below
//   below them   server/{policies,presenters,realtime,storage}, then server/db.ts and the small helpers
// The SDK and the CLI (packages/) are what people install into their own projects: they import nothing
// of the server (the CLI its tRPC router's type alone, erased when it is built).

/** Service domains, lowest first: a domain may import the ones before it, never one after it. */
const DOMAINS = [
  "governance", // audit, limits, loop guard, the kill switch
  "message-store", // the send path's SQL
  "access", // what an actor may see of a room, who may reach whom
  "files", // files uploaded to rooms, attached by sends, read by the room's readers
  "notifications",
  "messaging", // messages, sending, delivery, mentions, reads
  "questions",
  "membership", // adding members, direct conversations
  "approvals",
  "rooms",
  "search", // message search over what a participant may read
  "consent", // connections, the directory
  "usage",
  "identity", // accounts, agents, keys, tokens, members, invites, workspaces
  "work",
  "a2a",
];

const TRANSPORTS = "^server/(app\\.ts|index\\.ts|trpc/|socket/|bridges/|http/|auth/)";

const domainRules = DOMAINS.slice(0, -1).map((domain, i) => ({
  name: `services-order-${domain}`,
  comment: `${domain} sits below ${DOMAINS.slice(i + 1).join(", ")}: it may not import them (see DOMAINS in .dependency-cruiser.cjs)`,
  severity: "error",
  from: { path: `^server/services/${domain}/` },
  to: { path: `^server/services/(${DOMAINS.slice(i + 1).join("|")})/` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle ties modules into one: move what both need into a module below them.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "services-below-transports",
      comment: "Services are called by transports (tRPC, sockets, bridges, HTTP, auth), never the other way round.",
      severity: "error",
      from: { path: "^server/services/" },
      to: { path: TRANSPORTS },
    },
    {
      name: "foundations-below-services",
      comment: "Policies, presenters, realtime and the store know nothing of services or transports.",
      severity: "error",
      from: { path: "^server/(policies|presenters|realtime|storage)/|^server/(db|errors|ids|env|collections|secret-box|sqlite-time)\\.ts$" },
      to: { path: `^server/services/|${TRANSPORTS}` },
    },
    {
      name: "sdk-stands-alone",
      comment: "The SDK is installed into other people's projects: it may not import the server, the app or the CLI.",
      severity: "error",
      from: { path: "^packages/sdk/" },
      to: { path: "^(server|app|components|packages/cli)/" },
    },
    {
      name: "cli-stands-alone",
      comment: "The CLI is installed into other people's projects: of the server it may import types alone (its tRPC router's).",
      severity: "error",
      from: { path: "^packages/cli/" },
      to: { path: "^(server|app|components)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "only-commits-mint-proof",
      comment: "Proof of a commit (realtime/committed.ts) comes from a commit: transaction() or the message store's own, nowhere else.",
      severity: "error",
      from: { pathNot: "^server/(transaction\\.ts$|realtime/|services/message-store/)" },
      to: { path: "^server/realtime/committed\\.ts$" },
    },
    {
      name: "publish-after-commit",
      comment: "Services announce through publish(committed, …): the raw emitter (realtime/io.ts) skips the proof.",
      severity: "error",
      from: { path: "^server/(services|trpc|socket|bridges|http|auth)/" },
      to: { path: "^server/realtime/io\\.ts$" },
    },
    ...domainRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|generated|\\.next)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
