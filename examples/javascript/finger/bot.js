// A small finger bot: knocks out a hand when it can, otherwise plays the move that leaves the
// opponent the fewest chances to knock out one of its own hands.
"use strict";
const arena = require("arena");
const { Switch } = arena.finger;

// My hand (0 left, 1 right) and the opponent's hand each hit uses.
const HANDS = { LEFT_TO_LEFT: [0, 0], LEFT_TO_RIGHT: [0, 1], RIGHT_TO_LEFT: [1, 0], RIGHT_TO_RIGHT: [1, 1] };

// My hands and the opponent's after move, as [[myLeft, myRight], [theirLeft, theirRight]].
function after(state, move) {
  const mine = [state.ownLeft, state.ownRight];
  const theirs = [state.opponentLeft, state.opponentRight];
  if (move instanceof Switch) return [[move.left, move.right], theirs];
  const [from, to] = HANDS[move];
  theirs[to] += mine[from];
  if (theirs[to] >= 5) theirs[to] = 0;
  return [mine, theirs];
}

// How many of the opponent's hits would knock out one of my hands.
function threats(mine, theirs) {
  let n = 0;
  for (const t of theirs) for (const m of mine) if (t > 0 && m > 0 && t + m >= 5) n++;
  return n;
}

class Finisher {
  /** @param {import("arena").finger.State} state */
  move(state) {
    const legal = state.legalMoves();
    let best = legal[0];
    let bestScore = -Infinity;
    for (const move of legal) {
      const [mine, theirs] = after(state, move);
      const theirHands = theirs.filter((h) => h > 0).length;
      if (theirHands === 0) return move; // that wins the game
      // Knocking out a hand is worth most; then leave few threats; prefer hits to switches.
      const score = (2 - theirHands) * 10 - threats(mine, theirs) * 3 + (move instanceof Switch ? 0 : 1);
      if (score > bestScore) {
        best = move;
        bestScore = score;
      }
    }
    return best;
  }
}

arena.serve({
  name: "js-finisher",
  author: "arena examples",
  version: "0.1.0",
  games: [arena.finger.play(() => new Finisher())],
});
