// A room's turns as the browser keeps them: what tRPC `turns.forRoom` returned, with each
// `turn:activity` merged in (the turn replaced, its changed steps put in by key, in position order).
import type { RoomTurns, TurnStepView, TurnView, TurnWithSteps } from "@switchboard/sdk/turns";

/** `data` with one `turn:activity` applied; a turn not seen yet is added at the end (turns are oldest first). */
export function applyActivity(data: RoomTurns, turn: TurnView, steps: TurnStepView[]): RoomTurns {
  const at = data.turns.findIndex((t) => t.id === turn.id);
  const before: TurnWithSteps = at === -1 ? { ...turn, steps: [] } : data.turns[at];
  // An older event than what is shown (arrived late) changes nothing about the turn itself.
  const current = at !== -1 && before.updatedAt > turn.updatedAt ? before : turn;
  const byKey = new Map(before.steps.map((s) => [s.key, s]));
  for (const step of steps) byKey.set(step.key, step);
  const next: TurnWithSteps = { ...current, steps: [...byKey.values()].sort((a, b) => a.position - b.position) };
  const turns = at === -1 ? [...data.turns, next] : data.turns.map((t, i) => (i === at ? next : t));
  return { ...data, turns };
}
