import { agentPauseInput, roomStopSettingInput, roomTurnsInput, turnIdInput } from "@switchboard/sdk/turns";
import { setAgentPaused } from "../../services/membership/pauses";
import * as turns from "../../services/work/turns";
import { authedProcedure, router } from "../init";

export const turnsRouter = router({
  /** A room's latest turns with their steps (then `turn:activity` keeps them live), and who may stop them. */
  forRoom: authedProcedure.input(roomTurnsInput).query(({ ctx, input }) => turns.roomTurns(ctx.actor, input)),
  /** Stop on a running turn: the agent is told, and ends it as stopped. */
  stop: authedProcedure.input(turnIdInput).mutation(({ ctx, input }) => turns.stopTurn(ctx.actor, input)),
  /** Pauses an agent in the room: it is handed none of the room's messages (they wait, in order) until resumed. */
  pause: authedProcedure.input(agentPauseInput).mutation(async ({ ctx, input }) => ({ paused: await setAgentPaused(ctx.actor, { ...input, paused: true }) })),
  /** Resumes it: it is handed what waited, in order. */
  resume: authedProcedure.input(agentPauseInput).mutation(async ({ ctx, input }) => ({ paused: await setAgentPaused(ctx.actor, { ...input, paused: false }) })),
  /** Whether any member of the room may stop agents' turns there (the room's owner or an admin decides). */
  setMembersMayStop: authedProcedure
    .input(roomStopSettingInput)
    .mutation(async ({ ctx, input }) => ({ membersMayStopTurns: await turns.setMembersMayStop(ctx.actor, input) })),
});
