// A short socket session with the SDK, as the credential's participant. Passive: an agent's key is
// borrowed without acking its replay or moving its delivered cursor, so the agent's own process (or
// its MCP server) still gets everything. Fails fast, with an exit code, when the server is not there.
import { SwitchboardClient } from "@switchboard/sdk";
import type { MembershipView, ParticipantView } from "@switchboard/sdk/contract";
import type { Credential } from "./credentials";
import { causeOf, CliError, EXIT, toCliError, unreachable } from "./exit-codes";

export interface Session {
  client: SwitchboardClient;
  credential: Credential;
  me: ParticipantView;
  workspaceId: string;
  /** The caller's rooms as session:ready listed them. */
  rooms: MembershipView[];
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 15_000;
/** When the first handshake takes this long, the server's health endpoint says whether it is there at all. */
const PROBE_AFTER_MS = 1_500;

export async function openSession(credential: Credential): Promise<Session> {
  const client = new SwitchboardClient({
    url: credential.url,
    apiKey: credential.secret,
    passive: true,
    autoReceipts: false,
    reconnectDelayMs: { min: 200, max: 2_000 },
  });
  let ready: { participant: ParticipantView; workspaceId: string; rooms: MembershipView[] } | null = null;
  client.on("session:ready", (p) => void (ready = p));
  const timers: ReturnType<typeof setTimeout>[] = [];
  const failFast = new Promise<never>((_, reject) => {
    timers.push(setTimeout(() => void probe(credential.url).catch(reject), PROBE_AFTER_MS));
    timers.push(setTimeout(() => reject(unreachable(credential.url, "no answer")), CONNECT_TIMEOUT_MS));
  });
  try {
    await Promise.race([client.connect(), failFast]);
  } catch (error) {
    await client.close();
    throw toCliError(error);
  } finally {
    for (const t of timers) clearTimeout(t);
  }
  const session = ready as { participant: ParticipantView; workspaceId: string; rooms: MembershipView[] } | null;
  if (!session) throw new CliError(EXIT.ERROR, "Connected, but the server sent no session.");
  return { client, credential, me: session.participant, workspaceId: session.workspaceId, rooms: session.rooms, close: () => client.close() };
}

/** Runs `work` in a session and closes it, whatever happens. */
export async function withSession<T>(credential: Credential, work: (session: Session) => Promise<T>): Promise<T> {
  const session = await openSession(credential);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

/** Rejects when the server cannot be reached at all or is not a Switchboard server; resolves if it is up. */
async function probe(origin: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(new URL("/healthz", origin), { signal: AbortSignal.timeout(5_000) });
  } catch (error) {
    throw unreachable(origin, causeOf(error));
  }
  if (!res.ok)
    throw new CliError(EXIT.ERROR, `${origin} answered /healthz with HTTP ${res.status}: is it a Switchboard server?`, {
      hint: "Check --url or SWITCHBOARD_URL.",
    });
}
