// A small Real TV bot: votes out the weakest other player, never itself (that is betrayal).
"use strict";
const arena = require("arena");
const { weakest } = arena.realtv;

// The players of an {id: PlayerContext} map other than me.
function others(players, me) {
  return Object.values(players).filter((p) => p.id !== me);
}

class Loyal {
  /** @param {import("arena").realtv.Context} ctx */
  voteForElimination(ctx) {
    return weakest(others(ctx.activePlayers, ctx.ownId));
  }

  /** @param {import("arena").realtv.Context} ctx */
  voteForTie(ctx) {
    return weakest(others(ctx.currentTies, ctx.ownId)) ?? weakest(ctx.currentTies);
  }
}

// In realtv the name is the class name the other players see.
arena.serve({
  name: "JsLoyal",
  author: "arena examples",
  version: "0.1.0",
  games: [arena.realtv.play(() => new Loyal())],
});
