// Runs the bridges of the workspace's remote A2A agents in this process: for each enabled remote whose
// agent is active, an SDK Agent (sdk/agent.ts) with the a2a adapter, connected to this server over the
// socket API with the agent's own key. So receipts, cursors, order, exactly-once, bindings, consent and
// limits are those of any agent. One process runs a given remote: the one holding its lease, renewed
// on every pass; another takes over when it lapses. A new registration starts on the next pass; a
// remote turned off, removed or suspended stops, its turn in progress left for the next run. A bridge
// whose key is refused (its owner rotated the agent's keys) is given a new one.
import { randomUUID } from "node:crypto";
import { Agent } from "@switchboard/sdk/agent";
import { a2a } from "@switchboard/sdk/adapters/a2a";
import { SwitchboardError } from "@switchboard/sdk/client";
import {
  holdRemoteLease,
  listRunnableRemotes,
  recordRemoteAvailability,
  rekeyRefusedBridge,
  releaseRemoteLease,
  runnableRemote,
} from "../../../services/a2a/remotes";

export interface A2aHostOptions {
  /** This server's own URL, which the bridges connect to. */
  url: string;
  log: (line: string) => void;
  /** How often remotes are looked for and leases renewed (A2A_HOST_PASS_MS). */
  everyMs: number;
  /** How long a lease lasts unless renewed (default 30 s). */
  leaseMs?: number;
  /** Backoff while a remote is down (the adapter's default: 500 ms doubling to 30 s). */
  backoff?: { minMs: number; maxMs: number };
}

interface Running {
  agent: Agent;
  version: string;
  /** Passes in a row that found its socket down: past a few, it is started again (its key may have been rotated). */
  down: number;
}

/** Passes a bridge's socket may stay down (reconnecting by itself) before it is started again. */
const DOWN_PASSES = 3;

export function startA2aHost(opts: A2aHostOptions): { close(): Promise<void> } {
  const holder = randomUUID();
  const leaseMs = opts.leaseMs ?? 30_000;
  const running = new Map<string, Running>();
  let closed = false;

  async function stop(agentId: string): Promise<void> {
    const r = running.get(agentId);
    if (!r) return;
    running.delete(agentId);
    await r.agent.stop({ abandonTurns: true }).catch((e: unknown) => opts.log(`a2a: stopping ${agentId}: ${String(e)}`));
    await releaseRemoteLease(agentId, holder);
  }

  async function start(agentId: string, version: string, rekeyed = false): Promise<void> {
    const remote = await runnableRemote(agentId);
    if (!remote) return releaseRemoteLease(agentId, holder);
    const agent = Agent.create({
      url: opts.url,
      apiKey: remote.apiKey,
      handleSignals: false,
      log: opts.log,
      adapter: a2a({
        card: remote.card,
        credential: remote.credential,
        ...(opts.backoff ? { backoff: opts.backoff } : {}),
        log: opts.log,
        onAvailability: (error) => void recordRemoteAvailability(agentId, error).catch(() => undefined),
      }),
    });
    running.set(agentId, { agent, version, down: 0 });
    try {
      await agent.start();
      opts.log(`a2a: running the bridge of @${remote.handle}`);
    } catch (error) {
      await stop(agentId);
      // Its owner rotated or revoked the agent's keys: the bridge gets a key of its own again.
      if (!rekeyed && error instanceof SwitchboardError && error.code === "UNAUTHENTICATED" && (await rekeyRefusedBridge(agentId, holder, leaseMs))) {
        return start(agentId, version, true);
      }
      opts.log(`a2a: the bridge of @${remote.handle} could not connect: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function pass(): Promise<void> {
    const wanted = new Map((await listRunnableRemotes()).map((r) => [r.agentId, r.version]));
    for (const [agentId, r] of running) {
      r.down = r.agent.client.connected ? 0 : r.down + 1;
      if (wanted.get(agentId) !== r.version || r.down > DOWN_PASSES) await stop(agentId);
    }
    for (const [agentId, version] of wanted) {
      if (closed) return;
      const held = await holdRemoteLease(agentId, holder, leaseMs);
      if (running.has(agentId)) {
        if (!held) await stop(agentId); // another process took it over (this one stalled past its lease)
      } else if (held) {
        await start(agentId, version);
      }
    }
  }

  // One pass at a time, the next one `everyMs` after the last ended.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let current: Promise<void> = Promise.resolve();
  const loop = () => {
    current = pass()
      .catch((e: unknown) => opts.log(`a2a: bridge host: ${e instanceof Error ? e.message : String(e)}`))
      .then(() => {
        if (!closed) timer = setTimeout(loop, opts.everyMs);
      });
  };
  loop();

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await current;
      await Promise.all([...running.keys()].map((id) => stop(id)));
    },
  };
}
