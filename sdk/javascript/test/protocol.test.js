"use strict";
// The library in-process: the transcripts of docs/protocol.md section 8 through lib's Handler with
// scripted players, checking every answer and the state each player saw.

const test = require("node:test");
const assert = require("node:assert/strict");
const { performance } = require("node:perf_hooks");
const arena = require("../lib/index");
const { transcript, checkAnswers } = require("./harness");

/** Feeds lines to a handler made for bot; returns the answers (awaiting promised ones). */
async function feed(bot, lines) {
  const h = new arena.Handler(bot);
  const out = [];
  for (const l of lines) out.push(await h.handle(l));
  return out;
}

/** Records a deep copy of what the player saw at each call. */
function snapshot(v) {
  return JSON.parse(JSON.stringify(v));
}

const quiet = () => {
  // the kit logs faults on stderr; keep the test output readable
  const write = process.stderr.write;
  process.stderr.write = () => true;
  return () => (process.stderr.write = write);
};

test("describe names the bot, its sorted games and the kit", async () => {
  const bot = { name: "b", author: "me", version: "1.2", games: [arena.realtv.play(() => ({ voteForElimination() {}, voteForTie() {} })), arena.dynamite.play(() => () => "R")] };
  const [a, b] = await feed(bot, ['{"describe":{"hostVersion":"0.1.0"}}', '{"describe":{}}']);
  assert.equal(a, '{"name":"b","author":"me","version":"1.2","games":["dynamite","realtv"],"sdk":"javascript/0.1.0"}');
  assert.equal(b, a);
  const [c] = await feed({ games: [] }, ['{"describe":{}}']);
  assert.equal(c, '{"sdk":"javascript/0.1.0"}', "empty fields are left out");
});

test("dynamite: answers as in the protocol document and rebuilds the rounds", async () => {
  const seen = [];
  let setup;
  let outcome;
  const cycle = ["R", "P", "D", "S", "W"];
  const bot = {
    name: "cycler",
    games: [arena.dynamite.play(() => ({
      start(s) { setup = s; },
      move(st) {
        seen.push({ round: st.round, rounds: snapshot(st.rounds), seed: snapshot(st.asSeedRounds()), own: st.ownScore,
          opp: st.opponentScore, dyn: st.ownDynamiteLeft, stake: st.stake, left: st.timeLeftMs() });
        return cycle[(st.round - 1) % 5];
      },
      end(o) { outcome = o; },
    }))],
  };
  const lines = transcript("dynamite");
  const answers = await feed(bot, lines);
  checkAnswers(lines, answers, { game: "dynamite" });
  assert.equal(answers[5], '{"step":"4","dynamite":{"move":"DYNAMITE_MOVE_SCISSORS"}}', "answer-4 of section 8.1");
  assert.deepEqual(setup, { matchId: "m-dynamite", seat: 0, players: ["cycler", "rocky"], deadlineMs: 1000, clockMs: 0,
    targetScore: 1000, maxRounds: 2500, dynamitePerPlayer: 100 });
  assert.deepEqual(seen.map((s) => s.round), [1, 2, 3, 4, 5]);
  assert.deepEqual(seen[0].rounds, []);
  assert.deepEqual(seen[4].rounds, [{ own: "R", opponent: "R" }, { own: "P", opponent: "R" }, { own: "D", opponent: "R" }, { own: "S", opponent: "R" }]);
  assert.deepEqual(seen[4].seed[3], { p1: "S", p2: "R" });
  assert.deepEqual([seen[3].own, seen[3].opp, seen[3].dyn, seen[3].stake], [3, 0, 99, 1]);
  assert.deepEqual([seen[1].stake], [2]);
  assert.ok(seen[0].left > 900 && seen[0].left <= 1000, `time left ${seen[0].left}`);
  assert.equal(outcome.result, "WIN");
  assert.equal(outcome.score, 1001);
  assert.equal(outcome.state.round, 1668);
  assert.equal(outcome.state.rounds.length, 5);
  assert.deepEqual(outcome.state.rounds[4], { own: "P", opponent: "R" });
  assert.equal(outcome.state.ownDynamiteLeft, 0, "absent in the End: 0");
});

test("dynamite: a repeated request does not repeat a round; seats and matches are kept apart", async () => {
  const seen = new Map();
  const bot = { games: [arena.dynamite.play((setup) => (st) => {
    seen.set(`${setup.matchId}/${setup.seat}`, snapshot(st.rounds));
    return setup.seat === 0 ? "R" : "P";
  })] };
  const start = (m, seat) => JSON.stringify({ start: { matchId: m, seat, game: "dynamite", dynamite: { dynamitePerPlayer: 100 } } });
  const act = (m, seat, step, round, own, opp) => JSON.stringify({ act: { matchId: m, seat, step: String(step), deadlineMs: "1000",
    dynamite: { round, lastOwn: own, lastOpponent: opp, stake: 1 } } });
  const lines = [start("a", 0), start("a", 1), start("b", 0),
    act("a", 0, 1, 1), act("a", 1, 1, 1), act("b", 0, 1, 1),
    act("a", 0, 2, 2, "DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_PAPER"), act("a", 0, 2, 2, "DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_PAPER"),
    act("a", 1, 2, 2, "DYNAMITE_MOVE_PAPER", "DYNAMITE_MOVE_ROCK"),
    act("b", 0, 2, 2, "DYNAMITE_MOVE_WATER", "DYNAMITE_MOVE_DYNAMITE")];
  const answers = await feed(bot, lines);
  checkAnswers(lines, answers, { game: "dynamite" });
  assert.deepEqual(seen.get("a/0"), [{ own: "R", opponent: "P" }], "the repeated round 2 is counted once");
  assert.deepEqual(seen.get("a/1"), [{ own: "P", opponent: "R" }]);
  assert.deepEqual(seen.get("b/0"), [{ own: "W", opponent: "D" }]);
  assert.equal(JSON.parse(answers[9]).dynamite.move, "DYNAMITE_MOVE_ROCK");
  assert.equal(JSON.parse(answers[8]).dynamite.move, "DYNAMITE_MOVE_PAPER");
});

test("finger: answers as in the protocol document and rebuilds each game's history", async () => {
  const seen = [];
  const script = { 2: "RIGHT_TO_RIGHT", 4: arena.finger.Move.LEFT_TO_RIGHT, 6: "LEFT TO LEFT", 9: arena.finger.Move.SWITCH(0, 2), 11: [1, 2] };
  let step = 0;
  const steps = [2, 4, 6, 9, 11];
  let outcome;
  const bot = { games: [arena.finger.play(class {
    move(st) {
      seen.push({ game: st.game, newGame: st.newGame, round: st.round, started: st.started, hands: [st.ownLeft, st.ownRight, st.opponentLeft, st.opponentRight],
        history: st.history.map((h) => ({ player: h.player, own: h.own, move: String(h.move) })), won: st.gamesWon,
        legal: st.legalMoves().map(String), name: [st.ownName, st.opponentName] });
      return script[steps[step++]];
    }
    end(o) { outcome = o; }
  })] };
  const lines = transcript("finger");
  const answers = await feed(bot, lines);
  checkAnswers(lines, answers, { game: "finger" });
  assert.equal(answers[2], '{"step":"2","finger":{"move":"FINGER_MOVE_RIGHT_TO_RIGHT"}}', "answer-2 of section 8.2");
  assert.equal(answers[3], '{"step":"4","finger":{"move":"FINGER_MOVE_LEFT_TO_RIGHT"}}', "answer-4 of section 8.2");
  assert.equal(answers[5], '{"step":"9","finger":{"move":"FINGER_MOVE_SWITCH","switchRight":2}}', "a switch leaves 0 out");
  assert.equal(answers[6], '{"step":"11","finger":{"move":"FINGER_MOVE_SWITCH","switchLeft":1,"switchRight":2}}');
  assert.deepEqual(seen[0].history, [{ player: "lefty", own: false, move: "LEFT_TO_RIGHT" }]);
  assert.deepEqual(seen[0].name, ["righty", "lefty"]);
  assert.deepEqual(seen[1].hands, [1, 0, 1, 3]);
  assert.deepEqual(seen[1].legal, ["LEFT_TO_LEFT", "LEFT_TO_RIGHT"], "the lost right hand cannot hit, and there is no switch from 1-0");
  assert.deepEqual(seen[2].history.map((h) => h.move), ["LEFT_TO_RIGHT", "RIGHT_TO_RIGHT", "RIGHT_TO_RIGHT", "LEFT_TO_RIGHT", "LEFT_TO_LEFT"]);
  assert.deepEqual(seen[2].history.map((h) => h.own), [false, true, false, true, false]);
  assert.deepEqual([seen[3].game, seen[3].newGame, seen[3].started, seen[3].history, seen[3].won], [2, true, true, [], 1]);
  assert.deepEqual(seen[4].history, [{ player: "righty", own: true, move: "SWITCH(0, 2)" }, { player: "lefty", own: false, move: "RIGHT_TO_RIGHT" }]);
  assert.equal(seen[4].round, 3);
  assert.deepEqual(outcome && [outcome.result, outcome.score], ["WIN", 2]);
});

test("bidding: answers as in the protocol document and rebuilds the bids of each game", async () => {
  const seen = [];
  const bot = { games: [arena.bidding.play(() => ({
    bid(st) {
      seen.push({ game: st.game, side: st.side, a: st.isPlayerA, own: [...st.ownBids], opp: [...st.opponentBids], money: st.ownMoney,
        toWin: st.placesToWin(), adv: st.drawAdvantage, lost: st.gamesLost, name: st.opponentName });
      return st.round === 1 ? 12n : 12;
    },
  }))] };
  const lines = transcript("bidding");
  const answers = await feed(bot, lines);
  checkAnswers(lines, answers, { game: "bidding" });
  assert.equal(answers[4], '{"step":"3","bidding":{"bid":"12"}}', "answer-3 of section 8.3");
  assert.equal(answers[2], '{"step":"1","bidding":{"bid":"12"}}', "a bigint bid");
  assert.deepEqual(seen.map((s) => [s.own, s.opp]), [[[], []], [[12], [10]], [[12, 12], [10, 12]], [[], []], [[9], [10]]]);
  assert.deepEqual(seen.map((s) => s.side), ["A", "A", "A", "B", "B"]);
  assert.deepEqual(seen.map((s) => s.toWin), [5, 4, 3, 5, 6]);
  assert.deepEqual(seen.map((s) => s.adv), [true, true, false, false, true]);
  assert.equal(seen[2].money, 76);
  assert.equal(seen[4].lost, 1);
  assert.equal(seen[0].name, "climber");
});

test("auction: answers as in the protocol document and rebuilds rounds and collections", async () => {
  const seen = [];
  let outcome;
  const bot = { games: [arena.auction.play(() => ({
    bid(st) {
      seen.push({ index: st.itemIndex, item: st.item, rounds: snapshot(st.rounds), coll: snapshot(st.collections), wealth: snapshot(st.wealthTable),
        time: st.ownRemainTime, clock: st.clockRemainingMs, money: st.ownMoney, needs: st.needs("bob", "t1"), mine: snapshot(st.ownCollection),
        winner: st.bidWinner, winning: st.winningBid });
      return 7;
    },
    end(o) { outcome = o; },
  }))] };
  const lines = transcript("auction");
  const answers = await feed(bot, lines);
  checkAnswers(lines, answers, { game: "auction" });
  assert.equal(answers[3], '{"step":"2","auction":{"bid":7}}', "answer-2 of section 8.4");
  assert.deepEqual(seen[0], { index: 0, item: "t1", rounds: [], coll: { ann: {}, bob: {}, cy: {} }, wealth: { ann: 100, bob: 100, cy: 100 },
    time: 120, clock: 120000, money: 100, needs: 2, mine: {}, winner: null, winning: -1 });
  assert.deepEqual(seen[1].rounds, [{ itemIndex: 0, artist: "t1", winner: "bob", bid: 20 }]);
  assert.equal(seen[1].needs, 1);
  assert.deepEqual(seen[2].rounds[1], { itemIndex: 1, artist: "t0", winner: "ann", bid: 7 });
  assert.deepEqual(seen[2].mine, { t0: 1 });
  assert.deepEqual(seen[2].wealth, { ann: 93, bob: 80, cy: 100 });
  const st = outcome.state;
  assert.deepEqual([outcome.result, outcome.score, st.finished, st.gameWinner, st.item, st.rounds.length], ["LOSS", 0, true, "bob", "", 3]);
  assert.deepEqual(st.collections, { ann: { t0: 1 }, bob: { t1: 2 }, cy: {} });
  assert.equal(st.needs("bob", "t1"), 0);
});

test("realtv: answers as in the protocol document; the context's maps, the tie vote", async () => {
  const seen = [];
  let outcome;
  let made = 0;
  const bot = { name: "Weakling", games: [arena.realtv.play((setup) => {
    made++;
    const vote = (pool, ctx) => {
      const others = Object.values(pool).filter((p) => p.id !== ctx.ownId);
      return arena.realtv.weakest(others);
    };
    return {
      voteForElimination(ctx) {
        seen.push({ kind: "first", ctx: ctx, ids: Object.keys(ctx.activePlayers), betrayers: Object.keys(ctx.betrayers), me: ctx.me, setup });
        if (setup.strength < 5 && ctx.day === 1) return ctx.me; // betray
        return vote(ctx.activePlayers, ctx);
      },
      voteForTie(ctx) {
        seen.push({ kind: "tie", ids: Object.keys(ctx.currentTies) });
        return vote(ctx.currentTies, ctx).id;
      },
      end(o) { outcome = o; },
    };
  })] };
  const lines = transcript("realtv");
  const answers = await feed(bot, lines);
  checkAnswers(lines, answers, { game: "realtv" });
  assert.equal(made, 1);
  assert.equal(answers[3], '{"step":"2","realtv":{"voteId":"5WAK85AXOM"}}', "answer-2 of section 8.5");
  assert.equal(answers[4], '{"step":"3","realtv":{"voteId":"5WAK85AXOM"}}');
  const day1 = seen[0];
  assert.equal(day1.ids.length, 12);
  assert.deepEqual(day1.ids, [...day1.ids].sort(), "players in id order");
  assert.equal(day1.me.strength, 10);
  assert.ok(day1.me instanceof arena.realtv.PlayerContext);
  assert.equal(day1.setup.strength, 10);
  assert.equal(day1.setup.name, "Weakling");
  const filler = day1.ctx; // the same context object, updated in place for day 2
  assert.equal(filler.decision, "TIE", "by now the context shows the last request");
  const day2 = seen[1];
  assert.deepEqual(day2.betrayers, ["6IM6HZ7XB3", "A3FMJSUBAD", "A9V4TVOEGQ", "S8NJSG2V0V", "V200B711MR", "WIZFAZZAR7"]);
  assert.deepEqual(seen[2], { kind: "tie", ids: ["5WAK85AXOM", "E6Z43HF399"] });
  assert.equal(filler.currentTies["5WAK85AXOM"], filler.activePlayers["5WAK85AXOM"], "one PlayerContext per id");
  assert.deepEqual(filler.activePlayers["5WAK85AXOM"].previousMoves, [{ firstVote: "S8NJSG2V0V", tieVote: "" }]);
  assert.equal(filler.game.totalHumans, 11);
  assert.equal(filler.ownScore, 3);
  assert.deepEqual([outcome.result, outcome.score], ["WIN", 118]);
});

test("realtv: eleven instances in one process, each with its own player", async () => {
  const players = [];
  const bot = { games: [arena.realtv.play((setup) => {
    const p = { strength: setup.strength, voteForElimination: () => (setup.strength % 2 ? null : { id: "X" + setup.strength }), voteForTie: () => "" };
    players.push(p);
    return p;
  })] };
  const lines = [];
  for (let s = 0; s <= 10; s++) lines.push(JSON.stringify({ start: { matchId: "c", seat: s, game: "realtv", realtv: { id: "ID" + s, strength: s, instance: s } } }));
  for (let s = 0; s <= 10; s++) lines.push(JSON.stringify({ act: { matchId: "c", seat: s, step: "1", realtv: { decision: "REALTV_DECISION_ELIMINATION", day: 1 } } }));
  const answers = await feed(bot, lines);
  assert.equal(players.length, 11);
  assert.deepEqual(answers.slice(0, 11), Array(11).fill("{}"));
  assert.equal(answers[11], '{"step":"1","realtv":{"voteId":"X0"}}');
  assert.equal(answers[12], '{"step":"1","realtv":{}}', "null is no vote");
  assert.equal(answers[21], '{"step":"1","realtv":{"voteId":"X10"}}');
});

test("a throw in the player's code is an EXCEPTION with the player's traceback", async () => {
  const restore = quiet();
  try {
    function boom() {
      return null.x;
    }
    const bot = { games: [arena.dynamite.play(() => ({ move: (st) => (st.round === 1 ? boom() : st.round === 2 ? (() => { throw "oops"; })() : "R") }))] };
    const lines = ['{"start":{"matchId":"m","game":"dynamite","dynamite":{}}}',
      '{"act":{"matchId":"m","step":"1","dynamite":{"round":1}}}',
      '{"act":{"matchId":"m","step":"2","dynamite":{"round":2}}}',
      '{"act":{"matchId":"m","step":"3","dynamite":{"round":3}}}'];
    const answers = (await feed(bot, lines)).map((a) => JSON.parse(a));
    const e1 = answers[1].error;
    assert.equal(answers[1].step, "1");
    assert.equal(answers[1].dynamite, undefined, "no action with an error");
    assert.equal(e1.kind, "BOT_ERROR_KIND_EXCEPTION");
    assert.match(e1.message, /^TypeError: Cannot read properties of null/);
    assert.match(e1.traceback, /at boom \(.*protocol\.test\.js:\d+:\d+\)/, "the player's frame");
    assert.doesNotMatch(e1.traceback, /lib[\\/](server|dynamite)\.js/, "no kit frames");
    assert.deepEqual(answers[2].error, { kind: "BOT_ERROR_KIND_EXCEPTION", message: 'thrown "oops" (string)' });
    assert.equal(answers[3].dynamite.move, "DYNAMITE_MOVE_ROCK", "the seat plays on after a throw");
  } finally {
    restore();
  }
});

test("an answer that is not a move is an INVALID_ANSWER, in every game", async () => {
  const restore = quiet();
  try {
    const cases = [
      ["dynamite", arena.dynamite.play(() => () => "X"), { round: 1 }, /move\(\) returned "X" \(string\), not one of/],
      ["dynamite", arena.dynamite.play(() => () => undefined), { round: 1 }, /undefined \(undefined\)/],
      ["finger", arena.finger.play(() => () => "JUMP"), { game: 1 }, /not Move\.LEFT_TO_LEFT/],
      ["finger", arena.finger.play(() => () => arena.finger.Move.SWITCH(1.5, 0.5)), { game: 1 }, /counts must be whole numbers/],
      ["bidding", arena.bidding.play(() => () => 1.5), { game: 1 }, /not a whole number of dollars/],
      ["bidding", arena.bidding.play(() => () => "12"), { game: 1 }, /"12" \(string\)/],
      ["bidding", arena.bidding.play(() => () => 2 ** 64), { game: 1 }, /out of range/],
      ["auction", arena.auction.play(() => () => "7"), {}, /not a number/],
      ["realtv", arena.realtv.play(() => ({ voteForElimination: () => 42, voteForTie: () => "" })), {}, /not a PlayerContext, a player id or null/],
    ];
    for (const [game, entry, obs, re] of cases) {
      const lines = [JSON.stringify({ start: { matchId: "m", game, [game]: {} } }), JSON.stringify({ act: { matchId: "m", step: "5", [game]: obs } })];
      const [, a] = await feed({ games: [entry] }, lines);
      const ans = JSON.parse(a);
      assert.equal(ans.step, "5");
      assert.equal(ans.error.kind, "BOT_ERROR_KIND_INVALID_ANSWER", `${game}: ${a}`);
      assert.match(ans.error.message, re, game);
      assert.equal(ans[game], undefined);
    }
    // Thrown on purpose by the player: also an invalid answer.
    const [, a] = await feed({ games: [arena.dynamite.play(() => () => { throw new arena.InvalidAnswer("no idea"); })] },
      ['{"start":{"matchId":"m","game":"dynamite"}}', '{"act":{"matchId":"m","step":"1","dynamite":{}}}']);
    assert.equal(a, '{"step":"1","error":{"kind":"BOT_ERROR_KIND_INVALID_ANSWER","message":"no idea"}}');
  } finally {
    restore();
  }
});

test("encodings: NaN and infinite auction bids, bids of 0, a switch as an array, votes", async () => {
  const bids = [NaN, Infinity, -Infinity, 0, -0, 12.5, 3n];
  let i = 0;
  const lines = ['{"start":{"matchId":"m","game":"auction","auction":{}}}'];
  for (let s = 1; s <= bids.length; s++) lines.push(`{"act":{"matchId":"m","step":"${s}","auction":{}}}`);
  const answers = await feed({ games: [arena.auction.play(() => () => bids[i++])] }, lines);
  assert.deepEqual(answers.slice(1).map((a) => JSON.parse(a).auction), [{ bid: "NaN" }, { bid: "Infinity" }, { bid: "-Infinity" }, {}, {}, { bid: 12.5 }, { bid: 3 }]);
  const [, b] = await feed({ games: [arena.bidding.play(() => () => 0)] }, ['{"start":{"matchId":"m","game":"bidding"}}', '{"act":{"matchId":"m","step":"1","bidding":{}}}']);
  assert.equal(b, '{"step":"1","bidding":{}}');
  const [, f] = await feed({ games: [arena.finger.play(() => () => ({ left: 0, right: 2 }))] }, ['{"start":{"matchId":"m","game":"finger"}}', '{"act":{"matchId":"m","step":"1","finger":{}}}']);
  assert.equal(f, '{"step":"1","finger":{"move":"FINGER_MOVE_SWITCH","switchRight":2}}');
});

test("start: refuses an unknown game, a game the bot does not play, a failing factory", async () => {
  const restore = quiet();
  try {
    const bot = { name: "x", games: [arena.dynamite.play(() => () => "R"), arena.finger.play(() => { throw new RangeError("no fingers today"); }),
      arena.bidding.play(() => ({ bit() {} })), arena.auction.play(() => ({ bid() {}, start() { throw new Error("bad start"); } }))] };
    const answers = await feed(bot, [
      '{"start":{"matchId":"m","game":"chess"}}',
      '{"start":{"matchId":"m","game":"realtv","realtv":{}}}',
      '{"start":{"matchId":"m","game":"finger","finger":{}}}',
      '{"start":{"matchId":"m","game":"bidding","bidding":{}}}',
      '{"start":{"matchId":"m","game":"auction","auction":{}}}',
      '{"start":{"matchId":"m","game":"dynamite","finger":{}}}',
      '{"start":{"matchId":"m","game":"dynamite"}}',
      '{"act":{"matchId":"m","step":"1","finger":{}}}',
    ]);
    const err = answers.map((a) => JSON.parse(a).error);
    assert.equal(err[0], 'this kit (javascript/0.1.0) does not know the game "chess"');
    assert.equal(err[1], 'bot "x" does not play realtv (it plays auction, bidding, dynamite, finger)');
    assert.match(err[2], /^RangeError: no fingers today\n.*protocol\.test\.js/s);
    assert.match(err[3], /the bidding player has no bid\(\) method/);
    assert.match(err[4], /^Error: bad start/);
    assert.equal(err[5], "dynamite seat opened with a finger setup");
    assert.equal(err[6], undefined, "no setup at all: defaults");
    assert.equal(answers[7], '{"step":"1","error":{"kind":"BOT_ERROR_KIND_INVALID_ANSWER","message":"expected a dynamite observation, got finger"}}');
  } finally {
    restore();
  }
});

test("promises: an async player, start and end hook are awaited", async () => {
  const restore = quiet();
  try {
    const log = [];
    const bot = { games: [arena.dynamite.play(() => ({
      async start() { await new Promise((r) => setTimeout(r, 5)); log.push("start"); },
      async move(st) {
        await new Promise((r) => setTimeout(r, 1));
        if (st.round === 2) throw new Error("async boom");
        return "W";
      },
      async end() { log.push("end"); },
    }))] };
    const h = new arena.Handler(bot);
    const s = h.handle('{"start":{"matchId":"m","game":"dynamite"}}');
    assert.ok(s instanceof Promise);
    assert.equal(await s, "{}");
    assert.equal(await h.handle('{"act":{"matchId":"m","step":"1","dynamite":{"round":1}}}'), '{"step":"1","dynamite":{"move":"DYNAMITE_MOVE_WATER"}}');
    const e = JSON.parse(await h.handle('{"act":{"matchId":"m","step":"2","dynamite":{"round":2}}}'));
    assert.equal(e.error.kind, "BOT_ERROR_KIND_EXCEPTION");
    assert.equal(e.error.message, "Error: async boom");
    assert.equal(await h.handle('{"end":{"matchId":"m"}}'), "{}");
    assert.deepEqual(log, ["start", "end"]);
  } finally {
    restore();
  }
});

test("the clock counts from the line's arrival", async () => {
  let left;
  let clock;
  const h = new arena.Handler({ games: [arena.auction.play(() => (st) => { left = st.timeLeftMs(); clock = st.clockRemainingMs; return 1; })] });
  h.handle('{"start":{"matchId":"m","game":"auction"}}');
  h.handle('{"act":{"matchId":"m","step":"1","deadlineMs":"1000","clockRemainingMs":"5000","auction":{}}}', performance.now() - 300);
  assert.ok(left > 600 && left <= 700, `time left ${left}`);
  assert.equal(clock, 5000);
});

test("the CPU clock: budget, bank and wall cap as the host sends them, and an older host's deadline as the budget", async () => {
  const seen = [];
  const h = new arena.Handler({ games: [arena.dynamite.play(() => (st) => {
    seen.push([st.cpuClock, st.budgetMs, st.bankRemainingMs, st.wallCapMs]);
    return "R";
  })] });
  h.handle('{"start":{"matchId":"m","game":"dynamite"}}');
  h.handle('{"act":{"matchId":"m","step":"1","deadlineMs":"50","clockMode":"CLOCK_MODE_CPU","budgetUs":"50500","bankRemainingUs":"2000","wallCapMs":"151","dynamite":{}}}');
  h.handle('{"act":{"matchId":"m","step":"2","deadlineMs":"40","dynamite":{"round":1}}}');
  assert.deepEqual(seen, [[true, 50.5, 2, 151], [false, 40, 0, 40]]);
});

test("malformed and unusual lines: one answer each, unknown fields ignored, proto names, numbers for enums and int64", async () => {
  const restore = quiet();
  try {
    const seen = [];
    let ended;
    const bot = { name: "m", games: [arena.dynamite.play(() => ({
      move(st) { seen.push({ round: st.round, rounds: snapshot(st.rounds), opp: st.opponentScore, left: st.ownDynamiteLeft, d: st.deadlineMs }); return "P"; },
      end(o) { ended = o; },
    }))] };
    const lines = transcript("malformed");
    const answers = await feed(bot, lines);
    checkAnswers(lines, answers, { game: "dynamite", allowErrors: true });
    const P = '"dynamite":{"move":"DYNAMITE_MOVE_PAPER"}}';
    const broken = JSON.parse(answers[15]);
    assert.equal(broken.step, "13", "the step of a broken act line");
    assert.equal(broken.error.kind, "BOT_ERROR_KIND_INVALID_ANSWER");
    assert.match(broken.error.message, /^the request line is not JSON: /);
    answers[15] = "(checked above)";
    assert.deepEqual(answers, [
      "{}", "{}", "{}", "{}",
      '{"name":"m","games":["dynamite"],"sdk":"javascript/0.1.0"}',
      '{"error":"this kit (javascript/0.1.0) does not know the game \\"chess\\""}',
      '{"error":"bot \\"m\\" does not play finger (it plays dynamite)"}',
      "{}",
      '{"step":"7",' + P,
      '{"step":"8",' + P,
      '{"step":"9",' + P,
      '{"step":"10","error":{"kind":"BOT_ERROR_KIND_INVALID_ANSWER","message":"no open seat 3 in match \\"m-nobody\\""}}',
      '{"step":"11","error":{"kind":"BOT_ERROR_KIND_INVALID_ANSWER","message":"expected a dynamite observation, got finger"}}',
      '{"step":"9223372036854775807",' + P,
      '{"step":"9223372036854775807",' + P,
      "(checked above)",
      "{}", "{}",
      '{"step":"14","error":{"kind":"BOT_ERROR_KIND_INVALID_ANSWER","message":"no open seat 0 in match \\"m-x\\""}}',
      '{"name":"m","games":["dynamite"],"sdk":"javascript/0.1.0"}',
    ]);
    assert.deepEqual(seen[0], { round: 1, rounds: [], opp: 0, left: 100, d: 1000 }, "snake_case names, a number for an int64");
    assert.deepEqual(seen[1].rounds, [{ own: "R", opponent: "P" }], "an enum by number and by name");
    assert.deepEqual(seen[2].rounds, [{ own: "R", opponent: "P" }], "an unknown enum name reads as UNSPECIFIED: no round to add");
    assert.deepEqual([ended.result, ended.score], ["LOSS", 3], "result by number, score as a string");
    assert.deepEqual(ended.state.rounds.at(-1), { own: "W", opponent: "R" });
  } finally {
    restore();
  }
});
