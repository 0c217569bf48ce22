// realtv: keep the trial passing by voting off the weakest other player; when the island's
// trial would fail even with everyone staying, a weaker-than-median instance betrays instead
// (betrayers share 100 points when a trial fails). A tie vote goes to the weakest of the tied.

import { serve } from "arena"; // first: loading the kit keeps the real stdout for the handshake
import type { RealtvPlayer, RealtvSeat } from "arena";

function weakest(players: RealtvPlayer[]): string {
  let best: RealtvPlayer | undefined;
  for (const p of players) {
    if (!best || p.strength < best.strength || (p.strength === best.strength && p.score > best.score)) best = p;
  }
  return best ? best.id : "";
}

export function realtv(seat: RealtvSeat): string {
  const o = seat.obs;
  const me = o.own_id || seat.setup.id;
  const active = Object.values(o.active_players);
  const others = active.filter((p) => p.id !== me);

  if (o.decision === "REALTV_DECISION_TIE") {
    const tied = Object.values(o.current_ties).filter((p) => p.id !== me);
    return weakest(tied.length ? tied : others);
  }

  const n = active.length;
  const sum = active.reduce((s, p) => s + p.strength, 0);
  const strengths = active.map((p) => p.strength).sort((a, b) => a - b);
  const median = strengths[Math.floor(strengths.length / 2)] ?? 0;
  const myStrength = seat.setup.strength;
  if (n > 2 && sum < 7 * n - 3 && myStrength < median) return ""; // betray: leave now

  return weakest(others);
}

serve({ name: "TsSchemer", author: "arena examples", version: "0.1.0", strategies: { realtv } });
