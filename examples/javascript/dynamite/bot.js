// A small dynamite bot: spends dynamite while a draw has raised the stake, otherwise beats the
// opponent's favourite throw.
"use strict";
const arena = require("arena");
const { ROCK, DYNAMITE } = arena.dynamite;

// The throw that beats each throw.
const BEATS = { R: "P", P: "S", S: "R", D: "W", W: "R" };

class Frequency {
  constructor() {
    this.seen = { R: 0, P: 0, S: 0, D: 0, W: 0 };
  }

  /** @param {import("arena").dynamite.State} state */
  move(state) {
    const last = state.rounds[state.rounds.length - 1];
    if (last) this.seen[last.opponent]++;
    if (state.ownDynamiteLeft > 0 && state.stake >= 2) return DYNAMITE;
    if (!last) return ROCK;
    let favourite = "R";
    for (const m of arena.dynamite.MOVES) if (this.seen[m] > this.seen[favourite]) favourite = m;
    return BEATS[favourite];
  }
}

arena.serve({
  name: "js-frequency",
  author: "arena examples",
  version: "0.1.0",
  games: [arena.dynamite.play(() => new Frequency())],
});
