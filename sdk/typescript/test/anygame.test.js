// The kit's generic path: a bot with no per-game code (BotOptions.anyGame) plays every game,
// answering raw action objects. Run after the build: npm run build && node --test test/
"use strict";

const assert = require("node:assert/strict");
const { test } = require("node:test");

const { Bot } = require("../dist/server");
const { GAMES } = require("../dist/types");

const start = (game, setup) => ({ match_id: game, seat: 0, game, players: [], deadline_ms: 500, clock_ms: 0, setup: game, [game]: setup });
const act = (game, obs) => ({ match_id: game, seat: 0, step: 2, deadline_ms: 500, clock_remaining_ms: 0, clock_mode: "CLOCK_MODE_CPU",
  budget_us: 500000, bank_remaining_us: 0, wall_cap_ms: 1000, observation: game, [game]: obs });

test("anyGame plays every game with raw action objects", async () => {
  const seen = [];
  const bot = new Bot({
    name: "any", author: "tests", strategies: {},
    anyGame(seat) {
      seen.push([seat.game, seat.setup, seat.obs, seat.budgetMs]);
      return seat.game === "dynamite" ? { move: "DYNAMITE_MOVE_SCISSORS" } : seat.game === "realtv" ? { voteId: "p2" } : [1];
    },
  });
  assert.deepEqual(bot.describe({}).games, [...GAMES]);
  for (const [g, s] of [["dynamite", { target_score: 3 }], ["realtv", { id: "p1" }], ["bidding", {}]]) assert.deepEqual(bot.start(start(g, s)), {});
  assert.deepEqual(await bot.act(act("dynamite", { round: 4 }), 0), { step: 2, dynamite: { move: "DYNAMITE_MOVE_SCISSORS" } });
  assert.deepEqual(seen[0], ["dynamite", { target_score: 3 }, { round: 4 }, 500]);
  assert.deepEqual(await bot.act(act("realtv", { day: 1 }), 0), { step: 2, realtv: { vote_id: "p2" } });
  const bad = await bot.act(act("bidding", {}), 0);
  assert.equal(bad.error.kind, "BOT_ERROR_KIND_INVALID_ANSWER");
  assert.match(bad.error.message, /not a BiddingAction object/);
});
