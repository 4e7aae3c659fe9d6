// The server's plain JSON endpoints (`/api/v1/...`, answering { ok, data } or { ok, error }), with
// the CLI's errors: unreachable is "retry later", a non-JSON answer means the URL is wrong.
import type { Ack } from "@switchboard/sdk/contract";
import { causeOf, CliError, EXIT, fromErrorShape, unreachable } from "./exit-codes";

export async function postJson<T>(origin: string, route: string, body: unknown, opts: { bearer?: string; timeoutMs?: number } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(new URL(route, origin), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(opts.bearer ? { Authorization: `Bearer ${opts.bearer}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw unreachable(origin, causeOf(error));
  }
  let answer: Ack<T>;
  try {
    answer = (await res.json()) as Ack<T>;
  } catch {
    throw new CliError(EXIT.ERROR, `${origin} answered POST ${route} with HTTP ${res.status}, not JSON: is it a Switchboard server?`, {
      hint: "Check --url or SWITCHBOARD_URL.",
    });
  }
  if (answer.ok) return answer.data;
  throw fromErrorShape(answer.error);
}
