"use strict";
// arena.js as a process: stdout kept for the protocol, input split anywhere, end of stdin, run by
// hand. The bots are written into a temporary folder.

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { KIT, runBot, checkAnswers } = require("./harness");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "arena-js-kit-"));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** An allowance of wall time in ms stretched by the tests' one slack factor, ARENA_TEST_SLACK
 * (default 2; the Go tests' internal/slack): raise it on a loaded machine. */
function slack(ms) {
  const raw = process.env.ARENA_TEST_SLACK ?? "2";
  const f = Number(raw);
  if (!(f >= 1 && f <= 1000)) throw new Error(`ARENA_TEST_SLACK=${raw}: want a number from 1 to 1000`);
  return ms * f;
}

/** A bot folder holding bot.js with source. */
function bot(name, source) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "package.json"), '{"main":"bot.js"}\n');
  fs.writeFileSync(path.join(dir, "bot.js"), source);
  return dir;
}

const START = '{"start":{"matchId":"m","game":"dynamite","dynamite":{"dynamitePerPlayer":100}}}';
const act = (step) => `{"act":{"matchId":"m","step":"${step}","deadlineMs":"1000","dynamite":{"round":${step},"ownDynamiteLeft":100}}}`;

test("printing goes to stderr: console.log, console.info, process.stdout.write", () => {
  const dir = bot("printer", `
    console.log("before require"); // before the kit is loaded: the one line that escapes
    const arena = require("arena");
    console.log("loaded");
    arena.serve({ name: "printer", games: [arena.dynamite.play(() => (st) => {
      console.log("log", st.round);
      console.info("info");
      console.debug("debug");
      console.table([1]);
      process.stdout.write("raw write\\n");
      return "R";
    })] });
  `);
  const lines = ['{"describe":{}}', START, act(1), act(2), '{"end":{"matchId":"m"}}'];
  const r = runBot(dir, lines);
  assert.equal(r.status, 0);
  assert.equal(r.answers.shift(), "before require");
  checkAnswers(lines, r.answers, { game: "dynamite" });
  assert.match(r.stderr, /loaded\nlog 1\ninfo\ndebug\n.*raw write\nlog 2/s);
});

test("exceptions: a throw in move is an error answer with a traceback; an uncaught async throw is logged", () => {
  const dir = bot("thrower", `
    const arena = require("arena");
    function deep(n) { if (n === 0) throw new Error("deep trouble"); return deep(n - 1); }
    arena.serve({ games: [arena.dynamite.play(() => (st) => {
      if (st.round === 1) setTimeout(() => { throw new Error("late trouble"); }, 0);
      if (st.round === 2) return deep(3);
      return "S";
    })] });
  `);
  const child = spawn(process.execPath, [dir], { env: { PATH: process.env.PATH, NODE_PATH: KIT, ARENA_STDIO: "1" } });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  child.stdin.write(START + "\n" + act(1) + "\n");
  return new Promise((resolve) => setTimeout(resolve, 100)).then(() => {
    child.stdin.end(act(2) + "\n" + act(3) + "\n");
    return new Promise((resolve) => child.on("close", resolve));
  }).then((code) => {
    assert.equal(code, 0, err);
    const answers = out.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(answers.length, 4);
    assert.equal(answers[1].dynamite.move, "DYNAMITE_MOVE_SCISSORS");
    assert.equal(answers[2].error.kind, "BOT_ERROR_KIND_EXCEPTION");
    assert.equal(answers[2].error.message, "Error: deep trouble");
    assert.equal((answers[2].error.traceback.match(/at deep \(.*bot\.js:3:/g) || []).length, 4, answers[2].error.traceback);
    assert.doesNotMatch(answers[2].error.traceback, /arena\.js|lib\/server/);
    assert.equal(answers[3].dynamite.move, "DYNAMITE_MOVE_SCISSORS", "the process lives on");
    assert.match(err, /uncaught exception: Error: late trouble/);
  });
});

test("input split anywhere, CRLF, a last line without newline; exits 0 though a timer is left open", async () => {
  const dir = bot("splitter", `
    const arena = require("arena");
    setInterval(() => {}, 1 << 30); // would keep a careless process alive
    arena.serve({ games: [arena.dynamite.play(() => (st) => "PSR"[st.round % 3])] });
  `);
  const child = spawn(process.execPath, [dir], { env: { PATH: process.env.PATH, NODE_PATH: KIT, ARENA_STDIO: "1" } });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const text = `${START}\n${act(1)}\r\n${act(2)}\n${act(3)}`;
  const began = Date.now();
  for (let i = 0; i < text.length; i += 7) {
    child.stdin.write(text.slice(i, i + 7));
    if (i % 70 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  child.stdin.end();
  const code = await new Promise((r) => child.on("close", r));
  assert.equal(code, 0);
  assert.ok(Date.now() - began < slack(5000), `took ${Date.now() - began} ms`);
  assert.deepEqual(out.split("\n"), ["{}", '{"step":"1","dynamite":{"move":"DYNAMITE_MOVE_SCISSORS"}}',
    '{"step":"2","dynamite":{"move":"DYNAMITE_MOVE_ROCK"}}', '{"step":"3","dynamite":{"move":"DYNAMITE_MOVE_PAPER"}}', ""]);
});

test("answers keep their order when a promised answer is slow", () => {
  const dir = bot("slow", `
    const arena = require("arena");
    arena.serve({ games: [arena.dynamite.play(() => async (st) => {
      await new Promise((r) => setTimeout(r, st.round === 1 ? 50 : 0));
      return st.round === 1 ? "W" : "D";
    })] });
  `);
  const lines = [START, act(1), act(2), '{"describe":{}}', '{"end":{"matchId":"m"}}'];
  const r = runBot(dir, lines);
  assert.equal(r.status, 0, r.stderr);
  const answers = checkAnswers(lines, r.answers, { game: "dynamite" });
  assert.equal(answers[1].dynamite.move, "DYNAMITE_MOVE_WATER");
  assert.equal(answers[2].dynamite.move, "DYNAMITE_MOVE_DYNAMITE");
});

test("a large line (a 1,000,000-item auction start) is read whole", () => {
  const dir = bot("big", `
    const arena = require("arena");
    arena.serve({ games: [arena.auction.play(() => ({ start(s) { this.n = s.auctionItems.length; }, bid() { return this.n; } }))] });
  `);
  const items = Array.from({ length: 1000000 }, (_, i) => "t" + (i % 1000));
  const start = JSON.stringify({ start: { matchId: "m", game: "auction", auction: { artistsNum: 1000, auctionItems: items } } });
  const r = runBot(dir, [start, '{"act":{"matchId":"m","step":"1","auction":{}}}']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.answers, ["{}", '{"step":"1","auction":{"bid":1000000}}']);
});

test("a misused serve fails at once, on stderr", () => {
  const dir = bot("misused", `
    const arena = require("arena");
    arena.serve({ name: "x", games: ["dynamite"] });
  `);
  const r = runBot(dir, ['{"describe":{}}']);
  assert.notEqual(r.status, 0);
  assert.deepEqual(r.answers, []);
  assert.match(r.stderr, /games must be made by a game's play\(\)/);
});
