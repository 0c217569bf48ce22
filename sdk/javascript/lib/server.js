"use strict";
// The stdio protocol (docs/protocol.md, section 11): one StdioRequest per line in, exactly one
// response per line out. Handler turns one line into its answer; serve runs the loop on the
// process's stdin and stdout.

const { performance } = require("node:perf_hooks");
const c = require("./common");
const { GAMES } = require("./wire");

const EXCEPTION = "BOT_ERROR_KIND_EXCEPTION";
const INVALID = "BOT_ERROR_KIND_INVALID_ANSWER";
const EMPTY_ANSWER = "{}";

/**
 * @typedef {Object} Game One game a bot plays; make it with that game's `play`.
 * @property {string} name the game's registry name
 * @property {string} houseBot a house bot to suggest as an opponent
 * @property {(req: object, setup: object) => object} open opens a seat (internal)
 */

/**
 * @typedef {Object} Bot What `serve` needs: the bot's description and the games it plays.
 * @property {string} [name] the bot's name (in realtv, the class name other players see)
 * @property {string} [author]
 * @property {string} [version]
 * @property {Game[]} games one entry per game, e.g. `[arena.dynamite.play(() => new MyPlayer())]`
 */

function log(text) {
  try {
    process.stderr.write(text.endsWith("\n") ? text : text + "\n");
  } catch {
    // a closed stderr must not become a fault of the bot
  }
}

function oneLine(s) {
  return s.replace(/\r?\n/g, " ");
}

/** Whether a value is a promise-like the kit should wait for. */
function isThenable(v) {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function";
}

// The step of an act, echoed as received: the string itself, or a number written as a string.
// A number past 2^53 has lost digits in JSON.parse, so its digits are taken from the line.
function stepOf(act, line) {
  const v = c.field(act, "step");
  if (typeof v === "string") return v === "0" ? undefined : v;
  if (typeof v === "number") {
    if (v === 0) return undefined;
    if (Number.isSafeInteger(v)) return String(v);
    const m = /"step"\s*:\s*(-?\d+)/.exec(line);
    return m ? m[1] : String(v);
  }
  return undefined;
}

/** Turns protocol lines into answers for one bot. Calls of one seat never overlap. */
class Handler {
  /** @param {Bot} bot */
  constructor(bot) {
    if (!c.isObj(bot)) throw new TypeError("serve needs a bot: serve({name, author, version, games: [...]})");
    const games = Array.isArray(bot.games) ? bot.games : [];
    /** @type {Map<string, Game>} */
    this.games = new Map();
    for (const g of games) {
      if (!c.isObj(g) || typeof g.name !== "string" || typeof g.open !== "function") {
        throw new TypeError(`serve: games must be made by a game's play(), e.g. arena.dynamite.play(() => new MyPlayer()); got ${c.describeValue(g)}`);
      }
      if (!this.games.has(g.name)) this.games.set(g.name, g);
    }
    this.name = typeof bot.name === "string" ? bot.name : "";
    const describe = { };
    if (this.name) describe.name = this.name;
    if (typeof bot.author === "string" && bot.author) describe.author = bot.author;
    if (typeof bot.version === "string" && bot.version) describe.version = bot.version;
    const names = [...this.games.keys()].sort();
    if (names.length) describe.games = names;
    describe.sdk = c.SDK;
    this.describeAnswer = JSON.stringify(describe);
    /** Open seats by "matchId\0seat". */
    this.seats = new Map();
  }

  /**
   * The answer line (without its newline) to one request line; a Promise of it when the player
   * answered with a promise.
   * @param {string} line
   * @param {number} [now] `performance.now()` when the line arrived
   * @returns {string | Promise<string>}
   */
  handle(line, now = performance.now()) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      log(`arena(js): request line is not JSON (${e.message}): ${line.slice(0, 200)}`);
      // A broken act still gets an ActResponse, with its step when it can be read.
      if (/^\s*\{\s*"act"\s*:/.test(line)) {
        const m = /"step"\s*:\s*"?(-?\d+)/.exec(line);
        return errorAnswer(m && m[1] !== "0" ? m[1] : undefined, INVALID, `the request line is not JSON: ${e.message}`);
      }
      return EMPTY_ANSWER;
    }
    if (!c.isObj(msg)) {
      log(`arena(js): request line is not a JSON object: ${line.slice(0, 200)}`);
      return EMPTY_ANSWER;
    }
    if (msg.act != null) return this.act(c.obj(msg.act), now, line);
    if (msg.start != null) return this.start(c.obj(msg.start));
    if (msg.end != null) return this.end(c.obj(msg.end));
    if (msg.describe != null) return this.describeAnswer;
    log(`arena(js): unknown request ${JSON.stringify(Object.keys(msg))}, answered {}`);
    return EMPTY_ANSWER;
  }

  start(req) {
    let setupCase;
    for (const g of GAMES) {
      if (c.isObj(req[g])) {
        setupCase = g;
        break;
      }
    }
    const game = c.str(c.field(req, "game")) || setupCase || "";
    const entry = this.games.get(game);
    if (entry === undefined) {
      let msg;
      if (!GAMES.includes(game)) {
        msg = `this kit (${c.SDK}) does not know the game ${JSON.stringify(game)}`;
      } else {
        const plays = [...this.games.keys()].sort().join(", ") || "nothing";
        msg = `bot ${JSON.stringify(this.name)} does not play ${game} (it plays ${plays})`;
      }
      return JSON.stringify({ error: msg });
    }
    if (setupCase !== undefined && setupCase !== game) {
      return JSON.stringify({ error: `${game} seat opened with a ${setupCase} setup` });
    }
    const matchId = c.str(c.field(req, "matchId"));
    const seatNo = c.int(c.field(req, "seat"));
    const refuse = (e) => {
      const tb = c.userTraceback(e);
      log(`arena(js): opening ${game} seat ${seatNo} of match ${matchId} failed: ${c.errorMessage(e)}\n${tb}`);
      return JSON.stringify({ error: c.cut(tb && tb.startsWith(c.errorMessage(e)) ? tb : `${c.errorMessage(e)}\n${tb}`) });
    };
    let seat;
    let started;
    try {
      seat = entry.open(req, c.obj(req[game]));
      started = c.callHook(seat.player, "start", seat.setup);
    } catch (e) {
      return refuse(e);
    }
    seat.game = entry.name;
    const key = `${matchId}\u0000${seatNo}`;
    if (isThenable(started)) {
      return Promise.resolve(started).then(() => {
        this.seats.set(key, seat);
        return EMPTY_ANSWER;
      }, refuse);
    }
    this.seats.set(key, seat);
    return EMPTY_ANSWER;
  }

  act(req, now, line) {
    const step = stepOf(req, line);
    const seat = this.seats.get(`${c.str(c.field(req, "matchId"))}\u0000${c.int(c.field(req, "seat"))}`);
    if (seat === undefined) {
      return errorAnswer(step, INVALID, `no open seat ${c.int(c.field(req, "seat"))} in match ${JSON.stringify(c.str(c.field(req, "matchId")))}`);
    }
    const game = seat.game;
    const o = req[game];
    if (!c.isObj(o)) {
      const other = GAMES.find((g) => c.isObj(req[g]));
      return errorAnswer(step, INVALID, `expected a ${game} observation, got ${other ?? "none"}`);
    }
    let raw;
    try {
      raw = seat.ask(o, req, now);
    } catch (e) {
      return this.failed(step, req, e);
    }
    if (isThenable(raw)) {
      return Promise.resolve(raw).then((v) => this.answer(step, req, seat, v), (e) => this.failed(step, req, e));
    }
    return this.answer(step, req, seat, raw);
  }

  answer(step, req, seat, raw) {
    let action;
    try {
      action = seat.encode(raw);
    } catch (e) {
      return this.failed(step, req, e);
    }
    const out = step === undefined ? {} : { step };
    out[seat.game] = action;
    return JSON.stringify(out);
  }

  failed(step, req, e) {
    const where = `match ${c.str(c.field(req, "matchId"))} seat ${c.int(c.field(req, "seat"))} step ${step ?? 0}`;
    if (e instanceof c.InvalidAnswer) {
      log(`arena(js): invalid answer in ${where}: ${e.message}`);
      return errorAnswer(step, INVALID, e.message);
    }
    const msg = c.errorMessage(e);
    const tb = c.userTraceback(e);
    log(`arena(js): the bot threw in ${where}:\n${tb || msg}`);
    return errorAnswer(step, EXCEPTION, msg, tb);
  }

  end(req) {
    const matchId = c.str(c.field(req, "matchId"));
    const seatNo = c.int(c.field(req, "seat"));
    const key = `${matchId}\u0000${seatNo}`;
    const seat = this.seats.get(key);
    if (seat === undefined) return EMPTY_ANSWER;
    this.seats.delete(key);
    const o = req[seat.game];
    const report = (e) => {
      log(`arena(js): end hook of match ${matchId} seat ${seatNo} threw:\n${c.userTraceback(e) || c.errorMessage(e)}`);
      return EMPTY_ANSWER;
    };
    let r;
    try {
      r = seat.end(req, c.isObj(o) ? o : undefined);
    } catch (e) {
      return report(e);
    }
    if (isThenable(r)) return Promise.resolve(r).then(() => EMPTY_ANSWER, report);
    return EMPTY_ANSWER;
  }
}

function errorAnswer(step, kind, message, traceback) {
  const error = { kind, message: c.cut(oneLine(message), 1000) };
  if (traceback) error.traceback = c.cut(traceback);
  return JSON.stringify(step === undefined ? { error } : { step, error });
}

/**
 * Runs the protocol loop: reads request lines from `input`, writes one answer line per request
 * with `write`, in order, one request at a time, and calls `done` at end of input.
 * @param {Handler} handler
 * @param {NodeJS.ReadableStream} input
 * @param {(line: string, cb?: () => void) => void} write
 * @param {() => void} done
 */
function loop(handler, input, write, done) {
  let pending = ""; // text after the last newline
  const queue = []; // [line, arrival] waiting while a promised answer is outstanding
  let head = 0;
  let busy = false;
  let ended = false;

  const run = (line, now) => {
    let r;
    try {
      r = handler.handle(line, now);
    } catch (e) {
      // a bug of the kit itself: still answer, so the bridge is never left waiting
      log(`arena(js): internal error: ${e && e.stack ? e.stack : e}`);
      r = EMPTY_ANSWER;
    }
    if (typeof r === "string") {
      write(r + "\n");
      return;
    }
    busy = true;
    r.then((s) => s, (e) => {
      log(`arena(js): internal error: ${e && e.stack ? e.stack : e}`);
      return EMPTY_ANSWER;
    }).then((s) => {
      write(s + "\n");
      busy = false;
      drain();
    });
  };

  const drain = () => {
    while (!busy && head < queue.length) {
      const [line, now] = queue[head];
      queue[head++] = undefined;
      run(line, now);
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
    if (!busy && ended) done();
  };

  input.setEncoding("utf8");
  input.on("data", (chunk) => {
    const now = performance.now();
    let from = 0;
    let nl = chunk.indexOf("\n");
    if (nl < 0) {
      pending += chunk;
      return;
    }
    while (nl >= 0) {
      let line = chunk.slice(from, nl);
      if (pending !== "") {
        line = pending + line;
        pending = "";
      }
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (busy) queue.push([line, now]);
      else run(line, now);
      from = nl + 1;
      nl = chunk.indexOf("\n", from);
    }
    pending = chunk.slice(from);
  });
  input.on("end", () => {
    if (pending !== "") {
      // a last line without its newline is still a request
      const line = pending.endsWith("\r") ? pending.slice(0, -1) : pending;
      pending = "";
      if (busy) queue.push([line, performance.now()]);
      else run(line, performance.now());
    }
    ended = true;
    drain();
  });
}

module.exports = { Handler, loop, GAMES, log };
