"use strict";
// Real TV: players on an island vote each other out; betrayers share a bounty when the team fails
// its trial (rules: docs/rules/realtv.md).
//
//     const arena = require("arena");
//     const { weakest } = arena.realtv;
//     class LikesThemWeak {
//       voteForElimination(ctx) { return weakest(ctx.activePlayers); }
//       voteForTie(ctx) { return weakest(ctx.currentTies); }
//     }
//     arena.serve({ name: "LikesThemWeak", games: [arena.realtv.play((setup) => new LikesThemWeak())] });
//
// A contest opens 11 seats in one process, the script's instances of strength 0..10, that live for
// all phases: the factory is called once per instance (with its setup), and what it shares
// between instances (a closure, a module variable) is shared as the seed's class attributes were.
// A vote is a PlayerContext, any object with an `id`, an id string, or null for no vote; voting for
// yourself, for a player who is not active, or not voting in the first vote is betrayal.

const c = require("./common");
const { ENUMS } = require("./wire");

const GAME = "realtv";
const HOUSE_BOT = "bots/realtv/cmd/likesthemstrong";

// The seed's constants.
const PLAYERS_PER_ISLAND = 12;
const PHASES_PER_GAME = 100;
const SCORE_FOR_TRIAL = 3;
const SCORE_FOR_LASTMAN = 100;
const SCORE_FOR_ALL_TRAITORS = 100;
const INSTANCES_STRENGTH = Object.freeze([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
/** A trial with n players succeeds when their strengths sum to DIFFICULTY_A * n + DIFFICULTY_B or more. */
const DIFFICULTY_A = 7;
const DIFFICULTY_B = -3;

/** @typedef {"ELIMINATION"|"TIE"|"UNSPECIFIED"} DecisionName Which vote is asked for. */
const Decision = Object.freeze({ UNSPECIFIED: "UNSPECIFIED", ELIMINATION: "ELIMINATION", TIE: "TIE" });
const DECISIONS = ["UNSPECIFIED", "ELIMINATION", "TIE"];
const DECISION_NAMES = c.enumNames(ENUMS.RealtvDecision);

/**
 * @typedef {Object} Votes A player's votes of one day on the current island (ids as given; "" when none).
 * @property {string} firstVote
 * @property {string} tieVote
 */

/** The seed's PlayerContext: one player as seen at the start of the day. */
class PlayerContext {
  /**
   * @param {string} id @param {string} name @param {number} strength @param {number} score
   * @param {Votes[]} previousMoves
   */
  constructor(id, name, strength, score, previousMoves) {
    this.id = id;
    /** Class name of the player's script ("BotPareto" for a filler bot). */
    this.name = name;
    this.strength = strength;
    /** Score as of the start of the day (fractional after a split bounty). */
    this.score = score;
    /** Votes this player cast on the current island, one per day, oldest first. */
    this.previousMoves = previousMoves;
  }
}

/**
 * @typedef {Object} GameContext The seed's GameContext.
 * @property {number} totalBots filler bots in the whole arena this phase
 * @property {number} totalHumans script instances in the whole arena
 * @property {number} phaseIndex islands this instance has been on before this one
 */

/**
 * @typedef {Object} RealtvFields
 * @property {string} id the instance's own id (10 upper-case letters and digits)
 * @property {string} name class name of the script (your Describe name)
 * @property {number} strength
 * @property {number} phases
 * @property {number} playersPerIsland
 * @property {number} instance index of this instance among its script's instances (0..10)
 */
/**
 * @typedef {import("./common").SeatInfo & RealtvFields} Setup One instance of the script.
 */

/** The seed's Context plus the decision asked. One object per seat, updated in place. */
class Context extends c.Clock {
  /** @param {Setup} setup */
  constructor(setup) {
    super();
    /** @type {Setup} */
    this.setup = setup;
    /** @type {DecisionName} */
    this.decision = "UNSPECIFIED";
    this.islandIndex = 0;
    /** Day on this island, from 1. */
    this.day = 0;
    /** @type {GameContext} */
    this.game = Object.freeze({ totalBots: 0, totalHumans: 0, phaseIndex: 0 });
    /** {id: PlayerContext}: players on the island (for a tie vote, those left after today's traitors), by id order. @type {Record<string, PlayerContext>} */
    this.activePlayers = {};
    /** {id: PlayerContext}: those who share the bounty if the team fails a trial. @type {Record<string, PlayerContext>} */
    this.betrayers = {};
    /** @type {Record<string, PlayerContext>} */
    this.eliminatedPlayers = {};
    /** {id: PlayerContext}: the tied players, only during a tie vote. @type {Record<string, PlayerContext>} */
    this.currentTies = {};
    /** This instance's own score now. */
    this.ownScore = 0;
    this.ownId = setup.id;
  }

  /** This instance's own PlayerContext on the island (undefined when it is not active). */
  get me() {
    return Object.hasOwn(this.activePlayers, this.ownId) ? this.activePlayers[this.ownId] : undefined;
  }
}

/** @typedef {PlayerContext | {id: string} | string | null | undefined} Vote What a vote may be. */

/**
 * @typedef {Object} Player One instance of the script (one seat).
 * @property {(ctx: Context) => Vote | Promise<Vote>} voteForElimination the day's vote: who should leave the island
 * @property {(ctx: Context) => Vote | Promise<Vote>} voteForTie the tie-break vote among `ctx.currentTies`
 * @property {(setup: Setup) => void} [start] called once when the instance is created
 * @property {(outcome: import("./common").Outcome<Context>) => void} [end] called once when the contest is over
 */

function values(players) {
  if (players instanceof Map) return [...players.values()];
  if (Array.isArray(players)) return players;
  return players ? Object.values(players) : [];
}

/**
 * The player of least strength (the smallest id among equals); null if there is none.
 * @param {Record<string, PlayerContext> | PlayerContext[]} players
 * @returns {PlayerContext | null}
 */
function weakest(players) {
  let best = null;
  for (const p of values(players)) {
    if (best === null || p.strength < best.strength || (p.strength === best.strength && p.id < best.id)) best = p;
  }
  return best;
}

/**
 * The player of greatest strength (the smallest id among equals); null if there is none.
 * @param {Record<string, PlayerContext> | PlayerContext[]} players
 * @returns {PlayerContext | null}
 */
function strongest(players) {
  let best = null;
  for (const p of values(players)) {
    if (best === null || p.strength > best.strength || (p.strength === best.strength && p.id < best.id)) best = p;
  }
  return best;
}

/** A vote's id: a string, an object's `id` string, or "" for null/undefined. Throws InvalidAnswer. */
function toVoteId(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "object" && typeof v.id === "string") return v.id;
  throw new c.InvalidAnswer(`vote returned ${c.describeValue(v)}, not a PlayerContext, a player id or null`);
}

// A wire map of players, sorted by id so that iteration order (and so a choice among equals)
// never depends on the wire's order. One PlayerContext per id across the maps of a context.
function players(m, seen) {
  const out = {};
  for (const k of Object.keys(m).sort()) {
    let p = seen.get(k);
    if (p === undefined) {
      const w = c.obj(m[k]);
      const moves = c.list(c.field(w, "previousMoves")).map((v) => {
        const vo = c.obj(v);
        return Object.freeze({ firstVote: c.str(c.field(vo, "firstVote")), tieVote: c.str(c.field(vo, "tieVote")) });
      });
      p = new PlayerContext(c.str(c.field(w, "id")) || k, c.str(c.field(w, "name")), c.int(c.field(w, "strength")),
        c.dbl(c.field(w, "score")), moves);
      seen.set(k, p);
    }
    c.put(out, k, p);
  }
  return out;
}

class Seat {
  constructor(player, setup) {
    this.player = player;
    this.setup = setup;
    this.state = new Context(setup);
  }

  observe(o) {
    const st = this.state;
    st.decision = DECISIONS[c.enumOf(c.field(o, "decision"), DECISION_NAMES, ENUMS.RealtvDecision.length)];
    st.islandIndex = c.int(c.field(o, "islandIndex"));
    st.day = c.int(c.field(o, "day"));
    const g = c.obj(c.field(o, "game"));
    st.game = Object.freeze({ totalBots: c.int(c.field(g, "totalBots")), totalHumans: c.int(c.field(g, "totalHumans")),
      phaseIndex: c.int(c.field(g, "phaseIndex")) });
    const seen = new Map();
    st.activePlayers = players(c.obj(c.field(o, "activePlayers")), seen);
    st.betrayers = players(c.obj(c.field(o, "betrayers")), seen);
    st.eliminatedPlayers = players(c.obj(c.field(o, "eliminatedPlayers")), seen);
    st.currentTies = players(c.obj(c.field(o, "currentTies")), seen);
    st.ownScore = c.dbl(c.field(o, "ownScore"));
    const own = c.str(c.field(o, "ownId"));
    if (own !== "") st.ownId = own;
  }

  ask(o, req, now) {
    this.observe(o);
    const st = this.state;
    st._tick(req, now);
    return st.decision === "TIE" ? this.player.voteForTie(st) : this.player.voteForElimination(st);
  }

  encode(v) {
    const id = toVoteId(v);
    return id === "" ? {} : { voteId: id };
  }

  end(req, o) {
    if (o !== undefined) this.observe(o);
    return c.callHook(this.player, "end", c.outcomeOf(req, this.state));
  }
}

/**
 * The realtv entry of `serve`'s games: `make(setup)` makes the player of every instance (seat)
 * the host opens; a class is called with `new`.
 * @param {((setup: Setup) => Player) | (new (setup: Setup) => Player)} make
 */
function play(make) {
  if (typeof make !== "function") throw new TypeError("realtv.play needs a factory: realtv.play((setup) => new MyPlayer())");
  return Object.freeze({
    name: GAME,
    houseBot: HOUSE_BOT,
    open(req, s) {
      const setup = c.setupOf(GAME, req, s);
      return new Seat(c.makePlayer(GAME, make, setup, ["voteForElimination", "voteForTie"]), setup);
    },
  });
}

module.exports = {
  GAME, HOUSE_BOT, Decision, PlayerContext, Context, weakest, strongest, toVoteId, play,
  PLAYERS_PER_ISLAND, PHASES_PER_GAME, SCORE_FOR_TRIAL, SCORE_FOR_LASTMAN, SCORE_FOR_ALL_TRAITORS,
  INSTANCES_STRENGTH, DIFFICULTY_A, DIFFICULTY_B,
};
