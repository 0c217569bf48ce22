// dynamite: predict the opponent's next throw from what it threw after the same situation
// before (its previous throw, and whether points are rolling over), then throw what scores
// best against that prediction. Dynamite is kept for rounds worth more than one point.

import { serve } from "arena"; // first: loading the kit keeps the real stdout for the handshake
import type { DynamiteMove, DynamiteSeat } from "arena";

const R: DynamiteMove = "DYNAMITE_MOVE_ROCK";
const P: DynamiteMove = "DYNAMITE_MOVE_PAPER";
const S: DynamiteMove = "DYNAMITE_MOVE_SCISSORS";
const D: DynamiteMove = "DYNAMITE_MOVE_DYNAMITE";
const W: DynamiteMove = "DYNAMITE_MOVE_WATER";
const MOVES: DynamiteMove[] = [R, P, S, D, W];

/** +1 when a beats b, -1 when b beats a, 0 for a draw (docs/rules/dynamite.md). */
function outcome(a: DynamiteMove, b: DynamiteMove): number {
  if (a === b) return 0;
  const beats: Record<string, DynamiteMove[]> = {
    [R]: [S, W],
    [P]: [R, W],
    [S]: [P, W],
    [D]: [R, P, S],
    [W]: [D],
  };
  return beats[a]?.includes(b) ? 1 : -1;
}

interface Memory {
  /** context -> counts of the opponent's next throw, by MOVES index */
  counts: Map<string, number[]>;
  /** rounds already counted */
  seen: number;
}

function context(prevOpponent: DynamiteMove, stake: number): string {
  return `${prevOpponent}/${stake > 1 ? "roll" : "one"}`;
}

export function dynamite(seat: DynamiteSeat): DynamiteMove {
  const obs = seat.obs;
  const mem = (seat.memory.dynamite ??= { counts: new Map(), seen: 0 }) as Memory;

  // Learn from the rounds not yet counted: round i's opponent throw, in the context of round i-1.
  // The stake before each round is rebuilt from the draws.
  const rounds = seat.rounds;
  for (; mem.seen < rounds.length; mem.seen++) {
    const i = mem.seen;
    if (i === 0) continue;
    let stake = 1;
    for (let j = i - 1; j >= 0 && rounds[j].own === rounds[j].opponent; j--) stake++;
    const key = context(rounds[i - 1].opponent, stake);
    const c = mem.counts.get(key) ?? [0, 0, 0, 0, 0];
    const k = MOVES.indexOf(rounds[i].opponent);
    if (k >= 0) c[k] += 1;
    mem.counts.set(key, c);
  }

  // The predicted distribution of the opponent's throw (with a small prior; no dynamite or
  // water once it has none left / when we have none).
  const prev = rounds.length ? rounds[rounds.length - 1].opponent : "DYNAMITE_MOVE_UNSPECIFIED";
  const c = mem.counts.get(context(prev, obs.stake)) ?? [0, 0, 0, 0, 0];
  const prior = [1, 1, 1, obs.opponent_dynamite_left > 0 ? 0.3 : 0, 0.1];
  const weights = c.map((n, k) => (k === 3 && obs.opponent_dynamite_left === 0 ? 0 : n + prior[k]));
  const total = weights.reduce((a, b) => a + b, 0);

  // Dynamite is worth spending when the round is worth more than one point, or when
  // there is dynamite to spare for the rounds that are left.
  const roundsLeft = Math.max(1, seat.setup.max_rounds - obs.round + 1);
  const spare = obs.own_dynamite_left / roundsLeft;
  const dynamiteCost = Math.max(0, 1.0 - 0.35 * (obs.stake - 1) - 2 * spare);

  let best: DynamiteMove = [R, P, S][Math.floor(Math.random() * 3)];
  let bestValue = -Infinity;
  for (const mine of MOVES) {
    if (mine === D && obs.own_dynamite_left <= 0) continue;
    let ev = 0;
    MOVES.forEach((theirs, k) => (ev += (weights[k] / total) * outcome(mine, theirs)));
    if (mine === D) ev -= dynamiteCost;
    ev += Math.random() * 0.02; // break ties at random
    if (ev > bestValue) {
      bestValue = ev;
      best = mine;
    }
  }
  return best;
}

serve({ name: "ts-predictor", author: "arena examples", version: "0.1.0", strategies: { dynamite } });
