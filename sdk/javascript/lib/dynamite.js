"use strict";
// Dynamite: rock, paper, scissors, dynamite and water balloons (rules: docs/rules/dynamite.md).
//
//     const arena = require("arena");
//     class Rocky {
//       move(state) { return state.ownDynamiteLeft && state.stake > 2 ? "D" : "R"; }
//     }
//     arena.serve({ name: "rocky", games: [arena.dynamite.play(() => new Rocky())] });
//
// A fresh player plays each match. `state.rounds` lists every round played so far, oldest first,
// from this player's point of view (`own` is its throw, `opponent` the other's).

const c = require("./common");
const { ENUMS } = require("./wire");

const GAME = "dynamite";
const HOUSE_BOT = "bots/dynamite/cmd/paper";

/** @typedef {"R"|"P"|"S"|"D"|"W"} Move A throw, as the seed writes it. */

const ROCK = "R";
const PAPER = "P";
const SCISSORS = "S";
const DYNAMITE = "D";
const WATER = "W";
/** The five legal throws. */
const MOVES = Object.freeze(["R", "P", "S", "D", "W"]);

const WIRE = ENUMS.DynamiteMove;
const WIRE_NAMES = c.enumNames(WIRE);
const FROM_WIRE = ["", "R", "P", "S", "D", "W"];
const TO_WIRE = new Map([["R", WIRE[1]], ["P", WIRE[2]], ["S", WIRE[3]], ["D", WIRE[4]], ["W", WIRE[5]]]);

/**
 * @typedef {Object} Round One played round from this player's point of view.
 * @property {Move} own this player's throw (the seed's p1)
 * @property {Move} opponent the opponent's throw (the seed's p2)
 */

/**
 * @typedef {Object} DynamiteFields
 * @property {number} targetScore points that win the match (1000)
 * @property {number} maxRounds round cap (2500)
 * @property {number} dynamitePerPlayer dynamite each seat may throw (100)
 */
/**
 * @typedef {import("./common").SeatInfo & DynamiteFields} Setup A dynamite match's fixed rules.
 */

/** What a dynamite player sees before a round. One object per seat, updated in place. */
class State extends c.Clock {
  /** @param {Setup} setup */
  constructor(setup) {
    super();
    /** @type {Setup} */
    this.setup = setup;
    /** Round about to be played, from 1. */
    this.round = 0;
    /** Rounds played so far, oldest first. Do not modify. @type {Round[]} */
    this.rounds = [];
    this.ownScore = 0;
    this.opponentScore = 0;
    this.ownDynamiteLeft = setup.dynamitePerPlayer;
    this.opponentDynamiteLeft = setup.dynamitePerPlayer;
    /** Points the coming round is worth (1 plus the draws rolled over). */
    this.stake = 1;
    /** @private */
    this._seed = [];
  }

  /**
   * The rounds as the seed's API shows them: `[{p1: own, p2: opponent}, ...]`. Built
   * incrementally and shared between calls; do not modify.
   * @returns {{p1: Move, p2: Move}[]}
   */
  asSeedRounds() {
    const seed = this._seed;
    for (let i = seed.length; i < this.rounds.length; i++) {
      const r = this.rounds[i];
      seed.push({ p1: r.own, p2: r.opponent });
    }
    return seed;
  }

  /** The seed class bot's `gamestate`: `{rounds: asSeedRounds()}`. */
  asSeedGamestate() {
    return { rounds: this.asSeedRounds() };
  }
}

/**
 * @typedef {Object} Player Plays one dynamite match.
 * @property {(state: State) => Move | Promise<Move>} move the throw for the coming round
 * @property {(setup: Setup) => void} [start] called once when the match opens
 * @property {(outcome: import("./common").Outcome<State>) => void} [end] called once when it is over
 */

class Seat {
  constructor(player, setup) {
    this.player = player;
    this.setup = setup;
    this.state = new State(setup);
  }

  observe(o) {
    const st = this.state;
    const rnd = c.int(c.field(o, "round"));
    const own = c.enumOf(c.field(o, "lastOwn"), WIRE_NAMES, WIRE.length);
    // Append the previous round once, even if a request is ever repeated.
    if (rnd > st.rounds.length + 1 && own !== 0) {
      st.rounds.push(Object.freeze({ own: FROM_WIRE[own], opponent: FROM_WIRE[c.enumOf(c.field(o, "lastOpponent"), WIRE_NAMES, WIRE.length)] }));
    }
    st.round = rnd;
    st.ownScore = c.int(c.field(o, "ownScore"));
    st.opponentScore = c.int(c.field(o, "opponentScore"));
    st.ownDynamiteLeft = c.int(c.field(o, "ownDynamiteLeft"));
    st.opponentDynamiteLeft = c.int(c.field(o, "opponentDynamiteLeft"));
    st.stake = c.int(c.field(o, "stake"));
  }

  ask(o, req, now) {
    this.observe(o);
    this.state._tick(req, now);
    return this.player.move(this.state);
  }

  encode(m) {
    const w = typeof m === "string" ? TO_WIRE.get(m) : undefined;
    if (w === undefined) throw new c.InvalidAnswer(`move() returned ${c.describeValue(m)}, not one of "R", "P", "S", "D", "W"`);
    return { move: w };
  }

  end(req, o) {
    if (o !== undefined) this.observe(o);
    return c.callHook(this.player, "end", c.outcomeOf(req, this.state));
  }
}

/**
 * The dynamite entry of `serve`'s games: `make` makes a fresh player for every seat the host
 * opens (a factory `(setup) => player`, or a class). The player may also be a plain function
 * `(state) => move`.
 * @param {((setup: Setup) => Player | ((state: State) => Move)) | (new (setup: Setup) => Player)} make
 */
function play(make) {
  if (typeof make !== "function") throw new TypeError("dynamite.play needs a factory: dynamite.play(() => new MyPlayer())");
  return Object.freeze({
    name: GAME,
    houseBot: HOUSE_BOT,
    open(req, s) {
      const setup = c.setupOf(GAME, req, s);
      return new Seat(c.makePlayer(GAME, make, setup, ["move"]), setup);
    },
  });
}

module.exports = { GAME, HOUSE_BOT, ROCK, PAPER, SCISSORS, DYNAMITE, WATER, MOVES, State, play };
