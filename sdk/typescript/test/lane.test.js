// The kit's fast lane against a stand-in host: a connected pair of unix sockets, the real
// proto-loader codec and the kit's Bot. Run after the build: npm run build && node --test test/
"use strict";

const assert = require("node:assert/strict");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { test } = require("node:test");
const protoLoader = require("@grpc/proto-loader");

const { Bot } = require("../dist/server");
const { LANE_ENV, MAX_FRAME, serveLane, takeLaneFd } = require("../dist/lane");

const loaded = protoLoader.loadSync(["arena/v1/bot.proto"], {
  includeDirs: [path.join(__dirname, "..", "proto")],
  keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
});
const act = loaded["arena.v1.BotService"].Act;
const codec = { decode: (b) => act.requestDeserialize(b), encode: (m) => act.responseSerialize(m) };
// The host's side reads ActResponses and writes ActRequests: the same method, the other way.
const hostDecode = (b) => act.responseDeserialize(b);
const hostEncode = (m) => act.requestSerialize(m);

function frame(req) {
  const body = hostEncode(req);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** A connected pair of unix stream sockets (Node has no socketpair()). */
async function pair() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lane-"));
  const where = path.join(dir, "s");
  const server = net.createServer();
  await new Promise((ok) => server.listen(where, ok));
  const accepted = new Promise((ok) => server.once("connection", ok));
  const host = net.connect(where);
  await new Promise((ok) => host.once("connect", ok));
  const bot = await accepted;
  server.close();
  fs.rmSync(dir, { recursive: true });
  return { host, bot };
}

/** Reads n answers from the host's socket. */
function answers(host, n) {
  return new Promise((ok, fail) => {
    let buf = Buffer.alloc(0);
    const out = [];
    const onData = (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
        const len = buf.readUInt32BE(0);
        out.push(hostDecode(buf.subarray(4, 4 + len)));
        buf = buf.subarray(4 + len);
      }
      if (out.length >= n) {
        host.off("data", onData);
        ok(out);
      }
    };
    host.on("data", onData);
    host.once("close", () => fail(new Error(`the lane closed after ${out.length} of ${n} answers`)));
  });
}

function newBot() {
  let n = 0;
  const bot = new Bot({
    name: "Lane", author: "tests",
    strategies: {
      dynamite(seat) {
        if (seat.obs.round === 13) throw new RangeError("unlucky round 13");
        if (seat.obs.round === 14) return "NOT_A_MOVE";
        n += 1;
        return ["DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_PAPER", "DYNAMITE_MOVE_SCISSORS"][seat.rounds.length % 3];
      },
    },
  }, ["frames.v1"]);
  for (const [match_id, seat] of [["m1", 0], ["m1", 1], ["m2", 0]]) {
    assert.deepEqual(bot.start({ match_id, seat, game: "dynamite", players: ["a", "b"], deadline_ms: 1000, clock_ms: 0,
      setup: "dynamite", dynamite: { target_score: 1000, max_rounds: 2500, dynamite_per_player: 100 } }), {});
  }
  return bot;
}

const req = (match_id, seat, step, round) => ({ match_id, seat, step, deadline_ms: 1000,
  dynamite: { round, last_own: "DYNAMITE_MOVE_ROCK", last_opponent: "DYNAMITE_MOVE_PAPER" } });

test("Describe announces the lane it was given", () => {
  assert.deepEqual(newBot().describe({ host_version: "" }).lanes, ["frames.v1"]);
});

test("several seats interleaved before any answer, each echoed", async () => {
  const bot = newBot();
  const { host, bot: sock } = await pair();
  serveLane(sock, codec, (r, at) => bot.act(r, at));
  const seats = [["m1", 0], ["m1", 1], ["m2", 0]];
  const sent = [];
  for (const step of [1, 2]) for (const [m, s] of seats) sent.push(req(m, s, step, step));
  host.write(Buffer.concat(sent.map(frame)));
  const got = await answers(host, sent.length);
  const key = (r) => `${r.match_id}/${r.seat}/${r.step}`;
  assert.deepEqual(got.map(key).sort(), sent.map(key).sort());
  for (const r of got) assert.equal(r.action, "dynamite");
  // One seat's answers in order: its second move saw one more round than its first.
  const m1s0 = got.filter((r) => r.match_id === "m1" && r.seat === 0).map((r) => r.step);
  assert.deepEqual(m1s0, [1, 2]);
  host.end();
});

test("a strategy's exception and a bad answer are BotErrors with the echo", async () => {
  const bot = newBot();
  const { host, bot: sock } = await pair();
  serveLane(sock, codec, (r, at) => bot.act(r, at));
  host.write(Buffer.concat([frame(req("m1", 0, 13, 13)), frame(req("m1", 1, 14, 14))]));
  const got = await answers(host, 2);
  const raised = got.find((r) => r.step === 13);
  const invalid = got.find((r) => r.step === 14);
  assert.equal(raised.error.kind, "BOT_ERROR_KIND_EXCEPTION");
  assert.match(raised.error.message, /RangeError: unlucky round 13/);
  assert.match(raised.error.traceback, /lane\.test\.js/);
  assert.equal(invalid.error.kind, "BOT_ERROR_KIND_INVALID_ANSWER");
  assert.equal(invalid.match_id, "m1");
  assert.equal(invalid.seat, 1);
  host.end();
});

test("EOF inside a frame: answered what was whole, then stops without closing the process", async () => {
  const bot = newBot();
  const { host, bot: sock } = await pair();
  serveLane(sock, codec, (r, at) => bot.act(r, at));
  host.write(Buffer.concat([frame(req("m2", 0, 1, 1)), Buffer.from([0, 0, 0, 40, 1, 2])]));
  const [r] = await answers(host, 1);
  assert.equal(r.step, 1);
  const ended = new Promise((ok) => sock.once("end", ok));
  host.end();
  await ended;
});

test("a frame longer than MAX_FRAME closes the lane without reading on", async () => {
  const bot = newBot();
  const { host, bot: sock } = await pair();
  serveLane(sock, codec, (r, at) => bot.act(r, at));
  const head = Buffer.alloc(4);
  head.writeUInt32BE(MAX_FRAME + 1, 0);
  const closed = new Promise((ok) => host.once("close", ok));
  host.write(head);
  await closed;
  assert.ok(sock.destroyed);
});

test("takeLaneFd takes a socket, hides the variable, refuses the rest", async () => {
  const env = { [LANE_ENV]: "abc" };
  assert.equal(takeLaneFd(env), undefined);
  assert.equal(LANE_ENV in env, false);
  assert.equal(takeLaneFd({ [LANE_ENV]: "2" }), undefined);
  assert.equal(takeLaneFd({ [LANE_ENV]: "987654" }), undefined);
  const fd = fs.openSync(__filename, "r");
  assert.equal(takeLaneFd({ [LANE_ENV]: String(fd) }), undefined); // a file, not a socket
  fs.closeSync(fd);
  const { host, bot } = await pair();
  assert.equal(takeLaneFd({ [LANE_ENV]: String(bot._handle.fd) }), bot._handle.fd);
  host.destroy();
  bot.destroy();
  assert.equal(takeLaneFd({}), undefined);
});
