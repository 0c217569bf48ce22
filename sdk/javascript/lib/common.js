"use strict";
// What every game module shares: reading protojson values, the clock, setups, outcomes,
// invalid answers and the user's traceback without the kit's frames.

const path = require("node:path");
const { performance } = require("node:perf_hooks");
const { ENUMS, GAME_MESSAGES, MESSAGES } = require("./wire");

/** The kit's version, sent in DescribeResponse.sdk as "javascript/<VERSION>". */
const VERSION = "0.1.0";
const SDK = `javascript/${VERSION}`;

/**
 * Thrown (by the kit, or by a player on purpose) when a player's answer is not a move of its
 * game. The host charges it as garbage (BOT_ERROR_KIND_INVALID_ANSWER), not as a crash.
 */
class InvalidAnswer extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "InvalidAnswer";
  }
}

// ---- protojson values -------------------------------------------------------------------------
// Fields at their default value are absent, names may be lowerCamelCase or proto names, enums are
// names or numbers, 64-bit integers strings or numbers, maps objects. Anything else reads as the
// default, so a malformed field never throws.

const EMPTY = Object.freeze({});
const snakeNames = new Map();

/** The proto (snake_case) name of a lowerCamelCase field name. */
function snake(name) {
  let s = snakeNames.get(name);
  if (s === undefined) {
    s = name.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
    snakeNames.set(name, s);
  }
  return s;
}

/** o's field by its JSON name, else by its proto name; undefined when absent. */
function field(o, name) {
  const v = o[name];
  if (v !== undefined && v !== null) return v;
  const s = snake(name);
  return s === name ? undefined : o[s] ?? undefined;
}

/** v if it is a JSON object (not null, not an array), else an empty object. */
function obj(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : EMPTY;
}

/** Whether v is a JSON object. */
function isObj(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** An integer field (int32 or int64, number or decimal string); 0 when absent or malformed. */
function int(v) {
  if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === "string" && v !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? Math.trunc(n) : 0;
  }
  return 0;
}

/** A double field: a number, or a string ("1.5", "NaN", "Infinity", "-Infinity"). */
function dbl(v) {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v !== "") {
    if (v === "NaN") return NaN;
    if (v === "Infinity") return Infinity;
    if (v === "-Infinity") return -Infinity;
    const n = Number(v);
    return Number.isNaN(n) ? 0 : n;
  }
  return 0;
}

/** A string field. */
function str(v) {
  return typeof v === "string" ? v : "";
}

/** A bool field. */
function bool(v) {
  return v === true;
}

/** A repeated field. */
function list(v) {
  return Array.isArray(v) ? v : [];
}

/**
 * An enum field as its number: by name (an index into names) or by number. An unknown value
 * reads as 0 (UNSPECIFIED), as section 9 of the protocol asks.
 * @param {unknown} v
 * @param {Map<string, number>} byName
 * @param {number} count number of known values
 */
function enumOf(v, byName, count) {
  if (typeof v === "string") return byName.get(v) ?? 0;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < count) return v;
  return 0;
}

/** A name -> number map for enumOf. */
function enumNames(names) {
  return new Map(names.map((n, i) => [n, i]));
}

/** Sets o[k] = v, also for the key "__proto__" (a map key from the wire is any string). */
function put(o, k, v) {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

// ---- any message, through the generated tables (lib/wire.js) -------------------------------

/** Reads one value of a field's kind; `type` names the enum or message. */
function value(kind, type, v) {
  switch (kind) {
    case "int32":
    case "int64":
    case "uint32":
    case "uint64":
      return int(v);
    case "double":
      return dbl(v);
    case "bool":
      return bool(v);
    case "string":
    case "bytes":
      return str(v);
    case "enum": {
      const names = ENUMS[type];
      return names[enumOf(v, enumIndex(type), names.length)];
    }
    default:
      return isObj(v) ? decode(type, v) : null;
  }
}

const enumIndexes = new Map();
function enumIndex(type) {
  let m = enumIndexes.get(type);
  if (m === undefined) {
    m = enumNames(ENUMS[type]);
    enumIndexes.set(type, m);
  }
  return m;
}

/**
 * The message `type` of a protojson object as a plain object with every field by its JSON
 * name: what the host left out (a default) reads as its default, a malformed value as the
 * default, a message field that is absent as null.
 * @param {string} type a message name of MESSAGES
 * @param {object} o the object read from the line
 */
function decode(type, o) {
  const fields = MESSAGES[type];
  if (fields === undefined) throw new TypeError(`the protocol has no message ${JSON.stringify(type)}`);
  const out = {};
  for (const f of fields) {
    const v = field(o, f.json);
    if (f.label === "repeated") {
      out[f.json] = list(v).map((x) => value(f.kind, f.type, x));
    } else if (f.label === "map") {
      const m = {};
      for (const [k, x] of Object.entries(obj(v))) put(m, k, value(f.kind, f.type, x));
      out[f.json] = m;
    } else {
      out[f.json] = value(f.kind, f.type, v);
    }
  }
  return out;
}

// ---- time ---------------------------------------------------------------------------------------

/**
 * Time for the current move, set when the request's line arrived. Every game's state extends it.
 * All times are milliseconds; `deadline` is a `performance.now()` value.
 */
class Clock {
  constructor() {
    /** `performance.now()` value at which the host stops waiting for this move. */
    this.deadline = 0;
    /** The time given for this move (ActRequest.deadline_ms), in ms. */
    this.deadlineMs = 0;
    /** What was left of the seat's total clock when the request was sent, in ms (0: no clock). */
    this.clockRemainingMs = 0;
    /** True when moves are charged the CPU time of the bot's own processes, not wall time. */
    this.cpuClock = false;
    /** This move's budget (ActRequest.budget_us), in ms: CPU time when cpuClock is set. */
    this.budgetMs = 0;
    /** What is left of the seat's overage bank, in ms: the move may spend budgetMs plus this,
     *  and what it spends past budgetMs leaves the bank (0: none). */
    this.bankRemainingMs = 0;
    /** The wall time after which the move is a timeout whatever its CPU time, in ms. */
    this.wallCapMs = 0;
    /** @private */
    this._received = 0;
  }

  /** Milliseconds left for the current move (negative once the deadline has passed). */
  timeLeftMs() {
    return this.deadline - performance.now();
  }

  /** Milliseconds since the current request arrived. */
  elapsedMs() {
    return performance.now() - this._received;
  }

  /** @private */
  _tick(req, now) {
    this._received = now;
    this.deadlineMs = int(field(req, "deadlineMs"));
    this.deadline = now + this.deadlineMs;
    this.clockRemainingMs = int(field(req, "clockRemainingMs"));
    this.cpuClock = enumOf(field(req, "clockMode"), CLOCK_MODE_NAMES, ENUMS.ClockMode.length) === ENUMS.ClockMode.indexOf("CLOCK_MODE_CPU");
    // An older host sends no budget: its deadline is the budget.
    const budgetUs = int(field(req, "budgetUs"));
    this.budgetMs = budgetUs ? budgetUs / 1000 : this.deadlineMs;
    this.bankRemainingMs = int(field(req, "bankRemainingUs")) / 1000;
    this.wallCapMs = int(field(req, "wallCapMs")) || this.deadlineMs;
  }
}

const CLOCK_MODE_NAMES = enumNames(ENUMS.ClockMode);

/**
 * @typedef {Object} SeatInfo What every seat learns when it opens, whatever the game.
 * @property {string} matchId unique id of the match (or contest) within the host run
 * @property {number} seat this seat's index, from 0
 * @property {string[]} players display names of all seats, by seat
 * @property {number} deadlineMs per-move deadline in ms
 * @property {number} clockMs the seat's total clock in ms, 0 when the game has none
 */

/** The SeatInfo fields of a StartRequest. */
function seatInfo(req) {
  return {
    matchId: str(field(req, "matchId")),
    seat: int(field(req, "seat")),
    players: Object.freeze(list(field(req, "players")).map(str)),
    deadlineMs: int(field(req, "deadlineMs")),
    clockMs: int(field(req, "clockMs")),
  };
}

/**
 * A game's setup: the SeatInfo fields of the StartRequest and the game's setup message `s`,
 * every field by its JSON name (lists frozen).
 */
function setupOf(game, req, s) {
  const setup = { ...seatInfo(req), ...decode(GAME_MESSAGES[game].setup, s) };
  for (const [k, v] of Object.entries(setup)) if (Array.isArray(v)) setup[k] = Object.freeze(v);
  return Object.freeze(setup);
}

/** A seat's result in a finished match (EndRequest.result). */
const Result = Object.freeze({ UNSPECIFIED: "UNSPECIFIED", WIN: "WIN", LOSS: "LOSS", DRAW: "DRAW" });
const RESULTS = ["UNSPECIFIED", "WIN", "LOSS", "DRAW"];
const RESULT_NAMES = enumNames(ENUMS.Result);

/**
 * @template S
 * @typedef {Object} Outcome Handed to a player's `end` hook when the host closes the seat.
 * @property {"WIN"|"LOSS"|"DRAW"|"UNSPECIFIED"} result UNSPECIFIED when the match was cut short
 * @property {number} score the seat's score in the game's own unit
 * @property {S} state the seat's state after the final observation (if the game sends one)
 */

/** The Outcome of an EndRequest. */
function outcomeOf(req, state) {
  return Object.freeze({
    result: RESULTS[enumOf(field(req, "result"), RESULT_NAMES, ENUMS.Result.length)],
    score: dbl(field(req, "score")),
    state,
  });
}

// ---- players ------------------------------------------------------------------------------------

function isClass(f) {
  return typeof f === "function" && /^class[\s{]/.test(Function.prototype.toString.call(f));
}

/**
 * Makes the player of a new seat: `make` is a factory `(setup) => player` or a class (then
 * `new make(setup)`). A plain function as the player becomes its `method`. Throws when the player
 * lacks one of `methods` (the seat is then refused).
 * @param {string} game
 * @param {Function} make
 * @param {object} setup
 * @param {string[]} methods
 */
function makePlayer(game, make, setup, methods) {
  let p = isClass(make) ? new make(setup) : make(setup);
  if (typeof p === "function" && methods.length === 1) {
    const fn = p;
    p = { [methods[0]]: (s) => fn(s) };
  }
  if (p === null || (typeof p !== "object" && typeof p !== "function")) {
    throw new TypeError(`the ${game} factory returned ${describeValue(p)}, not a player object`);
  }
  for (const m of methods) {
    if (typeof p[m] !== "function") {
      throw new TypeError(`the ${game} player has no ${m}() method (it must implement ${methods.map((x) => x + "()").join(" and ")})`);
    }
  }
  return p;
}

/** Calls the player's optional hook (start or end); its result (maybe a promise) is returned. */
function callHook(player, hook, arg) {
  const f = player[hook];
  return typeof f === "function" ? f.call(player, arg) : undefined;
}

// ---- messages -----------------------------------------------------------------------------------

/** A short description of a bad answer, with its type, for error messages. */
function describeValue(v, limit = 120) {
  let text;
  try {
    if (typeof v === "string") text = JSON.stringify(v);
    else if (typeof v === "bigint") text = `${v}n`;
    else if (typeof v === "function") text = `[function ${v.name || "anonymous"}]`;
    else if (typeof v === "symbol") text = v.toString();
    else if (v !== null && typeof v === "object") text = JSON.stringify(v) ?? String(v);
    else text = String(v);
  } catch {
    text = "<unprintable>";
  }
  if (text.length > limit) text = text.slice(0, limit - 3) + "...";
  const type = v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "object" ? (v.constructor?.name || "object") : typeof v;
  return `${text} (${type})`;
}

/** Bound on one error's text: the host refuses a message over 1 MiB and keeps a few KiB. */
const MAX_ERROR_TEXT = 64 << 10;

/** s with its head and tail kept within about n characters. */
function cut(s, n = MAX_ERROR_TEXT) {
  if (s.length <= n) return s;
  return `${s.slice(0, n >> 1)}\n[... ${s.length - n} characters cut by the kit ...]\n${s.slice(s.length - (n >> 1))}`;
}

// The kit's own files: lib/ and arena.js next to it.
const KIT_LIB = __dirname + path.sep;
const KIT_ENTRY = path.join(path.dirname(__dirname), "arena.js");

/** The message of a thrown value: "TypeError: x is not a function". */
function errorMessage(e) {
  if (e instanceof Error) {
    const name = e.name || e.constructor?.name || "Error";
    return `${name}: ${e.message}`;
  }
  return `thrown ${describeValue(e)}`;
}

/**
 * The stack of a thrown value without the kit's frames and Node's internals, so the report
 * shows the player's own code. "" for a value without a stack.
 */
function userTraceback(e) {
  const stack = e instanceof Error || (isObj(e) && typeof e.stack === "string") ? e.stack : undefined;
  if (typeof stack !== "string") return "";
  const lines = stack.split("\n");
  const out = lines.filter((l) => {
    const t = l.trimStart();
    if (!t.startsWith("at ")) return true;
    return !(t.includes(KIT_LIB) || t.includes(KIT_ENTRY + ":") || t.includes("(node:") || t.startsWith("at node:"));
  });
  return out.join("\n");
}

module.exports = {
  VERSION,
  SDK,
  InvalidAnswer,
  Clock,
  Result,
  field,
  obj,
  isObj,
  int,
  dbl,
  str,
  bool,
  list,
  enumOf,
  enumNames,
  put,
  seatInfo,
  setupOf,
  decode,
  outcomeOf,
  makePlayer,
  callHook,
  describeValue,
  cut,
  errorMessage,
  userTraceback,
  MAX_ERROR_TEXT,
};
