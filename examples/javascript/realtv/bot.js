// A small Real TV bot: keeps the team strong by voting out the weakest other player, but betrays
// (votes for itself) when the island would fail its trial even without it, to share the traitors'
// 100 points instead of getting nothing.
"use strict";
const arena = require("arena");
const { weakest, DIFFICULTY_A, DIFFICULTY_B } = arena.realtv;

// The players of an {id: PlayerContext} map other than me.
function others(players, me) {
  return Object.values(players).filter((p) => p.id !== me);
}

// Whether a trial with these players fails: their strengths must add up to 7n - 3.
function fails(players) {
  const sum = players.reduce((s, p) => s + p.strength, 0);
  return sum < DIFFICULTY_A * players.length + DIFFICULTY_B;
}

class Schemer {
  /** @param {import("arena").realtv.Context} ctx */
  voteForElimination(ctx) {
    const rest = others(ctx.activePlayers, ctx.ownId);
    if (rest.length > 1 && fails(rest)) return ctx.ownId; // betray: the island is lost anyway
    return weakest(rest);
  }

  /** @param {import("arena").realtv.Context} ctx */
  voteForTie(ctx) {
    return weakest(others(ctx.currentTies, ctx.ownId)) ?? weakest(ctx.currentTies);
  }
}

// In realtv the name is the class name the other players see.
arena.serve({
  name: "JsSchemer",
  author: "arena examples",
  version: "0.1.0",
  games: [arena.realtv.play(() => new Schemer())],
});
