"use strict";
// The generic path in-process: a player with no per-game code reads any game's setup and
// observations through the generated tables and answers raw action objects.

const test = require("node:test");
const assert = require("node:assert/strict");
const arena = require("../lib/index");

async function feed(bot, lines) {
  const h = new arena.Handler(bot);
  const out = [];
  for (const l of lines) out.push(await h.handle(typeof l === "string" ? l : JSON.stringify(l)));
  return out;
}

test("anygame plays every game of the protocol with the player's raw actions", async () => {
  const seen = [];
  const bot = {
    name: "any",
    games: arena.anygame.playAll((setup) => (state) => {
      seen.push({ setup, game: state.game, observation: state.observation, deadlineMs: state.deadlineMs });
      return state.game === "dynamite" ? { move: "DYNAMITE_MOVE_WATER" } : "{}";
    }),
  };
  const out = await feed(bot, [
    { describe: {} },
    { start: { matchId: "m", seat: 1, game: "dynamite", dynamite: { target_score: 5 } } },
    { act: { matchId: "m", seat: 1, step: "2", deadlineMs: "900", dynamite: { round: "3", lastOwn: 4, ownScore: "x" } } },
    { start: { matchId: "r", game: "realtv", realtv: { id: "p1" } } },
    '{"act":{"matchId":"r","step":1,"realtv":{"decision":"REALTV_DECISION_TIE","activePlayers":{"__proto__":{"score":"NaN","previousMoves":[{"tieVote":"q"}]}}}}}',
  ]);
  assert.deepEqual(JSON.parse(out[0]).games, [...arena.wire.GAMES].sort());
  assert.deepEqual(out.slice(1).map((l) => JSON.parse(l)), [
    {}, { step: "2", dynamite: { move: "DYNAMITE_MOVE_WATER" } }, {}, { step: "1", realtv: {} },
  ]);
  assert.equal(seen[0].setup.targetScore, 5);
  assert.equal(seen[0].setup.seat, 1);
  assert.equal(seen[0].deadlineMs, 900);
  assert.deepEqual(seen[0].observation, {
    round: 3, lastOwn: "DYNAMITE_MOVE_DYNAMITE", lastOpponent: "DYNAMITE_MOVE_UNSPECIFIED", ownScore: 0,
    opponentScore: 0, ownDynamiteLeft: 0, opponentDynamiteLeft: 0, stake: 0,
  });
  const o = seen[1].observation;
  assert.equal(o.decision, "REALTV_DECISION_TIE");
  assert.equal(o.game, null);
  const p = Object.getOwnPropertyDescriptor(o.activePlayers, "__proto__").value;
  assert.ok(Number.isNaN(p.score));
  assert.deepEqual(p.previousMoves, [{ firstVote: "", tieVote: "q" }]);
});

test("anygame turns an answer that is not an object into an invalid answer", async () => {
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    const out = await feed({ games: [arena.anygame.play("bidding", () => () => 7)] }, [
      { start: { matchId: "m", game: "bidding", bidding: {} } },
      { act: { matchId: "m", step: "1", bidding: {} } },
    ]);
    const a = JSON.parse(out[1]);
    assert.equal(a.error.kind, "BOT_ERROR_KIND_INVALID_ANSWER");
    assert.match(a.error.message, /not a BiddingAction object/);
  } finally {
    process.stderr.write = write;
  }
  assert.throws(() => arena.anygame.play("chess", () => ({})), /no game "chess" \(games: dynamite/);
});
