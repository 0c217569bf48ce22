// bidding: spread the money over the rounds still needed to bring the bottle home, never
// bid more than it takes to outbid everything the opponent can spread over its own way home,
// and when the opponent is one round from winning, block with all that it takes.

import { serve } from "arena"; // first: loading the kit keeps the real stdout for the handshake
import type { BiddingSeat } from "arena";

export function bidding(seat: BiddingSeat): number {
  const o = seat.obs;
  const money = o.own_money;
  if (money <= 0) return 0;
  const opp = o.opponent_money;
  const isA = o.player !== "BIDDING_PLAYER_B";
  const myNeed = isA ? 10 - o.bottle_position : o.bottle_position; // rounds I must win
  const oppNeed = 10 - myNeed;
  const maxRounds = seat.setup.max_rounds > 0 ? seat.setup.max_rounds : 10;
  const roundsLeft = Math.max(1, maxRounds - o.round + 1);

  // What surely wins this round: more than the opponent's money (equal is enough with the
  // draw advantage).
  const sure = o.draw_advantage ? opp : opp + 1;
  const clamp = (b: number): number => Math.max(1, Math.min(money, Math.floor(b)));

  // I can win every round still needed: take them all.
  if (myNeed <= roundsLeft && sure * myNeed <= money) return clamp(Math.max(sure, 1));

  // The opponent wins if it takes this round: stop it if I can, else bid everything.
  if (oppNeed === 1) return clamp(Math.min(sure, money));

  // Out of reach this game: spend little, but still block an opponent that could get home.
  if (myNeed > roundsLeft) {
    if (oppNeed > roundsLeft) return 1;
    return clamp(Math.ceil(opp / oppNeed) + 1);
  }

  const mine = money / myNeed; // my share of money per round needed
  const theirs = opp / Math.max(1, oppNeed); // the opponent's
  const bid = Math.min(Math.ceil(mine), Math.ceil(theirs) + 1);
  return clamp(bid);
}

serve({ name: "ts-spreader", author: "arena examples", version: "0.1.0", strategies: { bidding } });
