// Limits per client address on what anyone may try before they are signed in. Each attempt can cost
// the server a password hash (sign-up, sign-in) or database writes (registering an agent, a failed
// handshake), so one address cannot make it do them without end. Counted like every other limit
// (./limits: in memory, or in Redis with REDIS_URL). Calls made inside the server (the demo seed)
// have no address and are not limited. A sign-up that joins by a usable invite is not counted: the
// invite's uses and expiry bound those (a team behind one office address joins by one link).
import { env } from "../../env";
import { limitKey } from "./address-key";
import { consume, count, exhausted, refuseIfExhausted, type Rule } from "./limits";

/** Sign-ups that do not join by a usable invite; those that do are bounded by the invite (uses, expiry). */
const SIGN_UPS: Rule = { name: "addr:signup", points: env.SIGNUPS_PER_ADDRESS_PER_HOUR, perSeconds: 60 * 60 };
const SIGN_INS: Rule = { name: "addr:signin", points: env.SIGNINS_PER_ADDRESS_PER_10_MINUTES, perSeconds: 10 * 60 };
const AGENT_REGISTRATIONS: Rule = { name: "addr:register", points: env.REGISTRATIONS_PER_ADDRESS_PER_HOUR, perSeconds: 60 * 60 };
const FAILED_HANDSHAKES: Rule = { name: "addr:handshake-failed", points: env.FAILED_HANDSHAKES_PER_ADDRESS_PER_10_MINUTES, perSeconds: 10 * 60 };

const tooMany = (what: string) => `Too many ${what} from your address`;

/** Every attempt counts, whether it then succeeds or not: the work is done either way. */
async function attempt(rule: Rule, address: string | null, what: string): Promise<void> {
  if (address) await consume(rule, limitKey(address), tooMany(what));
}

export const countSignUp = (address: string | null) => attempt(SIGN_UPS, address, "sign-ups");
export const countSignIn = (address: string | null) => attempt(SIGN_INS, address, "sign-in attempts");
export const countAgentRegistration = (address: string | null) => attempt(AGENT_REGISTRATIONS, address, "agent registrations");

/** Refuses a sign-up from an address that has used up its sign-ups, without counting it (one by a usable invite). */
export async function refuseIfSignUpsUsedUp(address: string | null): Promise<void> {
  if (address) await refuseIfExhausted(SIGN_UPS, limitKey(address), tooMany("sign-ups"));
}

/** Counts a sign-up that was refused anyway (an invite sign-up that failed after its check): no second refusal. */
export async function countFailedSignUp(address: string | null): Promise<void> {
  if (address) await count(SIGN_UPS, limitKey(address));
}

/** Failed handshakes only count; past the limit the address's handshakes are refused unchecked. */
export async function handshakesBlocked(address: string | null): Promise<boolean> {
  return address !== null && (await exhausted(FAILED_HANDSHAKES, limitKey(address)));
}

export async function countFailedHandshake(address: string | null): Promise<void> {
  if (address) await count(FAILED_HANDSHAKES, limitKey(address));
}
