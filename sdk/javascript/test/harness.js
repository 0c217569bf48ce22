"use strict";
// Shared helpers of the self-test (no tests here): the transcripts, running a bot folder on a
// transcript, and the checks every answer of every game must pass.

const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const KIT = path.resolve(__dirname, "..");
const REPO = path.resolve(KIT, "..", "..");
const EXAMPLES = path.join(REPO, "examples", "javascript");
const GAMES = ["dynamite", "finger", "bidding", "auction", "realtv"];

/** The lines of test/transcripts/<name>.jsonl. */
function transcript(name) {
  const text = fs.readFileSync(path.join(__dirname, "transcripts", `${name}.jsonl`), "utf8");
  return text.split("\n").filter((l, i, all) => !(l === "" && i === all.length - 1));
}

/**
 * Runs `node <dir>` with the kit on NODE_PATH, feeds it the lines, returns its answer lines,
 * stderr and exit status.
 */
function runBot(dir, lines, { env = {}, input } = {}) {
  const r = spawnSync(process.execPath, [dir], {
    input: input ?? lines.map((l) => l + "\n").join(""),
    env: { PATH: process.env.PATH, NODE_PATH: KIT, ARENA_STDIO: "1", ...env },
    encoding: "utf8",
    timeout: 20000,
  });
  if (r.error) throw r.error;
  const out = r.stdout.split("\n");
  assert.equal(out.pop(), "", `stdout must end with a newline; got ${JSON.stringify(r.stdout.slice(-80))}`);
  return { answers: out, stderr: r.stderr, status: r.status, signal: r.signal };
}

/** The call of a request line ("act", "start"...), or undefined for a line that is not one. */
function callOf(line) {
  try {
    const m = JSON.parse(line);
    if (m && typeof m === "object" && !Array.isArray(m)) {
      return ["act", "start", "end", "describe"].find((k) => m[k] != null);
    }
  } catch {
    // not JSON
  }
  return undefined;
}

const FINGER_HANDS = {
  FINGER_MOVE_LEFT_TO_LEFT: [0, 0], FINGER_MOVE_LEFT_TO_RIGHT: [0, 1],
  FINGER_MOVE_RIGHT_TO_LEFT: [1, 0], FINGER_MOVE_RIGHT_TO_RIGHT: [1, 1],
};

/** Asserts that action is a legal move of game for the observation o. */
function assertLegal(game, o, action, where) {
  assert.ok(action && typeof action === "object", `${where}: no ${game} action`);
  const n = (v) => (v === undefined ? 0 : Number(v));
  switch (game) {
    case "dynamite": {
      const moves = ["ROCK", "PAPER", "SCISSORS", "DYNAMITE", "WATER"].map((m) => "DYNAMITE_MOVE_" + m);
      assert.ok(moves.includes(action.move), `${where}: ${action.move} is not a throw`);
      if (action.move === "DYNAMITE_MOVE_DYNAMITE") assert.ok(n(o.ownDynamiteLeft) > 0, `${where}: dynamite with none left`);
      break;
    }
    case "finger": {
      const own = [n(o.ownLeft), n(o.ownRight)];
      const opp = [n(o.opponentLeft), n(o.opponentRight)];
      if (action.move === "FINGER_MOVE_SWITCH") {
        const l = n(action.switchLeft);
        const r = n(action.switchRight);
        assert.ok(l >= 0 && r >= 0 && l <= 5 && r <= 5 && l + r === own[0] + own[1], `${where}: switch ${l},${r} from ${own}`);
        assert.ok(!(l === own[0] && r === own[1]) && !(l === own[1] && r === own[0]), `${where}: switch to the same hands`);
      } else {
        const h = FINGER_HANDS[action.move];
        assert.ok(h, `${where}: ${action.move} is not a finger move`);
        assert.ok(own[h[0]] > 0 && opp[h[1]] > 0, `${where}: ${action.move} with hands ${own} against ${opp}`);
      }
      break;
    }
    case "bidding": {
      const bid = action.bid === undefined ? "0" : action.bid;
      assert.equal(typeof bid, "string", `${where}: an int64 bid is a JSON string`);
      assert.match(bid, /^\d+$/, `${where}: bid ${bid}`);
      const money = n(o.ownMoney);
      assert.ok(money === 0 ? bid === "0" : Number(bid) >= 1 && Number(bid) <= money, `${where}: bid ${bid} with ${money}`);
      break;
    }
    case "auction": {
      const bid = action.bid === undefined ? 0 : action.bid;
      assert.equal(typeof bid, "number", `${where}: bid ${bid}`);
      assert.ok(Number.isInteger(bid) && bid >= 0 && bid <= n(o.ownMoney), `${where}: bid ${bid} with ${o.ownMoney}`);
      break;
    }
    case "realtv": {
      const vote = action.voteId ?? "";
      const pool = o.decision === "REALTV_DECISION_TIE" ? o.currentTies : o.activePlayers;
      // (a first vote for itself is a betrayal by choice: legal)
      assert.ok(Object.hasOwn(pool || {}, vote), `${where}: vote ${JSON.stringify(vote)} is not a candidate`);
      break;
    }
    default:
      assert.fail(`unknown game ${game}`);
  }
}

/**
 * Checks the answers of a bot to request lines: one answer per line, each a JSON object of the
 * right kind; every act answered with the step echoed exactly and, when `game` is given, a
 * legal action of that game (or, with `allowErrors`, an error).
 */
function checkAnswers(requests, answers, { game, allowErrors = false } = {}) {
  assert.equal(answers.length, requests.length, "one answer line per request line");
  const parsed = [];
  requests.forEach((line, i) => {
    const where = `line ${i + 1} (${line.slice(0, 60)}...)`;
    let a;
    assert.doesNotThrow(() => (a = JSON.parse(answers[i])), `${where}: answer ${answers[i]} is not JSON`);
    assert.ok(a && typeof a === "object" && !Array.isArray(a), `${where}: answer is not an object`);
    const call = callOf(line);
    if (call === "act") {
      const req = JSON.parse(line).act;
      // The step as written on the line (a number past 2^53 loses digits in JSON.parse).
      const m = /"step"\s*:\s*"?(-?\d+)/.exec(line);
      const step = m ? m[1] : undefined;
      assert.equal(a.step, step === "0" ? undefined : step, `${where}: step echoed`);
      if (a.error) {
        assert.ok(allowErrors, `${where}: unexpected error ${JSON.stringify(a.error)}`);
        assert.match(a.error.kind, /^BOT_ERROR_KIND_(EXCEPTION|INVALID_ANSWER)$/);
        assert.equal(typeof a.error.message, "string");
      } else if (game) {
        assertLegal(game, req[game], a[game], where);
        const others = Object.keys(a).filter((k) => k !== "step" && k !== game);
        assert.deepEqual(others, [], `${where}: stray fields`);
      }
    } else if (call === "describe") {
      assert.equal(a.sdk, "javascript/0.1.0", `${where}: sdk`);
    } else if (call === "start") {
      assert.ok(a.error === undefined || typeof a.error === "string", `${where}: StartResponse`);
    } else if (call === undefined && /^\s*\{\s*"act"\s*:/.test(line)) {
      assert.equal(a.error && a.error.kind, "BOT_ERROR_KIND_INVALID_ANSWER", `${where}: a broken act line answered with an error`);
    } else {
      assert.deepEqual(a, {}, `${where}: ${call ?? "malformed line"} answered {}`);
    }
    parsed.push(a);
  });
  return parsed;
}

module.exports = { KIT, REPO, EXAMPLES, GAMES, transcript, runBot, callOf, checkAnswers, assertLegal };
