"use strict";
// Bidding game: two players bid for a bottle that moves one place toward each round's winner
// (rules: docs/rules/bidding.md).
//
//     const arena = require("arena");
//     class Steady {
//       bid(state) { return state.ownMoney === 0 ? 0 : Math.min(state.ownMoney, 12); }
//     }
//     arena.serve({ name: "steady", games: [arena.bidding.play(() => new Steady())] });
//
// A bid must be a whole number, at least 1 and at most `state.ownMoney`, or 0 when the player has
// no money left. A match is a series of games with sides alternating; `state.ownBids` and
// `state.opponentBids` hold the bids of the current game only.

const c = require("./common");
const { ENUMS } = require("./wire");

const GAME = "bidding";
const HOUSE_BOT = "bots/bidding/cmd/random";

/** @typedef {"A"|"B"|""} Side Side A wins the bottle at place 10, side B at place 0 ("" unknown). */

/** The sides. A holds the draw advantage first. */
const Side = Object.freeze({ UNKNOWN: "", A: "A", B: "B" });
const SIDES = ["", "A", "B"];
const SIDE_NAMES = c.enumNames(ENUMS.BiddingPlayer);

/**
 * @typedef {Object} BiddingFields
 * @property {number} games games in the match
 * @property {number} startMoney dollars per game
 * @property {number} maxRounds rounds after which a game without a winner is a draw
 * @property {string} ownName
 * @property {string} opponentName
 */
/**
 * @typedef {import("./common").SeatInfo & BiddingFields} Setup A bidding match: a series of games.
 */

/** What a bidding player sees before a bid. One object per seat, updated in place. */
class State extends c.Clock {
  /** @param {Setup} setup */
  constructor(setup) {
    super();
    /** @type {Setup} */
    this.setup = setup;
    /** Game within the match, from 1. */
    this.game = 0;
    /** True on the first bid of a new game. */
    this.newGame = false;
    /** Round within the game, from 1. */
    this.round = 0;
    /** @type {Side} */
    this.side = "";
    this.ownMoney = setup.startMoney;
    this.opponentMoney = setup.startMoney;
    this.startMoney = setup.startMoney;
    /** Place of the bottle, 0..10; side A wins at 10, side B at 0. */
    this.bottlePosition = 5;
    /** Bids of the current game, oldest first. New arrays each game; do not modify. @type {number[]} */
    this.ownBids = [];
    /** @type {number[]} */
    this.opponentBids = [];
    /** Rounds of the current game won and lost (a tie goes to the draw advantage's holder). */
    this.roundsWon = 0;
    this.roundsLost = 0;
    /** True while this player holds the draw advantage. */
    this.drawAdvantage = false;
    this.opponentName = setup.opponentName;
    /** Games of the match decided so far. */
    this.gamesWon = 0;
    this.gamesLost = 0;
    this.gamesDrawn = 0;
  }

  get isPlayerA() {
    return this.side === "A";
  }

  get ownName() {
    return this.setup.ownName;
  }

  /** How many more rounds this player must win (net) for the bottle to reach its end. */
  placesToWin() {
    return this.side === "A" ? 10 - this.bottlePosition : this.bottlePosition;
  }

  /** How many more rounds the opponent must win (net) to take the bottle. */
  placesToLose() {
    return 10 - this.placesToWin();
  }

  /** The least legal bid: 1, or 0 when this player has no money left. */
  minBid() {
    return Math.min(1, this.ownMoney);
  }
}

/**
 * @typedef {Object} Player Plays one bidding match (all its games).
 * @property {(state: State) => number | Promise<number>} bid this round's sealed bid in whole dollars
 * @property {(setup: Setup) => void} [start] called once when the match opens
 * @property {(outcome: import("./common").Outcome<State>) => void} [end] called once when it is over
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Checks a bid: a whole number (a number without fraction, or a bigint) and returns it as the
 * int64 decimal string of the wire. Range rules (at least 1, at most the money) are the engine's.
 * Throws InvalidAnswer.
 */
function toBid(v) {
  let b;
  if (typeof v === "number" && Number.isInteger(v)) b = BigInt(v);
  else if (typeof v === "bigint") b = v;
  else throw new c.InvalidAnswer(`bid() returned ${c.describeValue(v)}, not a whole number of dollars`);
  if (b < INT64_MIN || b > INT64_MAX) throw new c.InvalidAnswer(`bid() returned ${b}, out of range`);
  return b.toString();
}

class Seat {
  constructor(player, setup) {
    this.player = player;
    this.setup = setup;
    this.state = new State(setup);
  }

  observe(o) {
    const st = this.state;
    const game = c.int(c.field(o, "game"));
    const newGame = c.bool(c.field(o, "newGame"));
    const round = c.int(c.field(o, "round"));
    if (newGame || game !== st.game) {
      st.ownBids = [];
      st.opponentBids = [];
    }
    // The previous round's bids, once (the round number guards against a repeated request).
    if (c.bool(c.field(o, "hasLast")) && st.ownBids.length < round - 1) {
      st.ownBids.push(c.int(c.field(o, "lastOwnBid")));
      st.opponentBids.push(c.int(c.field(o, "lastOpponentBid")));
    }
    st.game = game;
    st.newGame = newGame;
    st.round = round;
    st.side = SIDES[c.enumOf(c.field(o, "player"), SIDE_NAMES, ENUMS.BiddingPlayer.length)];
    st.ownMoney = c.int(c.field(o, "ownMoney"));
    st.opponentMoney = c.int(c.field(o, "opponentMoney"));
    st.startMoney = c.int(c.field(o, "startMoney"));
    st.bottlePosition = c.int(c.field(o, "bottlePosition"));
    st.roundsWon = c.int(c.field(o, "roundsWon"));
    st.roundsLost = c.int(c.field(o, "roundsLost"));
    st.drawAdvantage = c.bool(c.field(o, "drawAdvantage"));
    const opp = c.str(c.field(o, "opponentName"));
    if (opp !== "") st.opponentName = opp;
    st.gamesWon = c.int(c.field(o, "gamesWon"));
    st.gamesLost = c.int(c.field(o, "gamesLost"));
    st.gamesDrawn = c.int(c.field(o, "gamesDrawn"));
  }

  ask(o, req, now) {
    this.observe(o);
    this.state._tick(req, now);
    return this.player.bid(this.state);
  }

  encode(v) {
    const b = toBid(v);
    return b === "0" ? {} : { bid: b };
  }

  end(req, o) {
    if (o !== undefined) this.observe(o);
    return c.callHook(this.player, "end", c.outcomeOf(req, this.state));
  }
}

/**
 * The bidding entry of `serve`'s games: `make` makes a fresh player for every seat the host
 * opens (a factory `(setup) => player`, or a class). The player may also be a plain function
 * `(state) => bid`.
 * @param {((setup: Setup) => Player | ((state: State) => number)) | (new (setup: Setup) => Player)} make
 */
function play(make) {
  if (typeof make !== "function") throw new TypeError("bidding.play needs a factory: bidding.play(() => new MyPlayer())");
  return Object.freeze({
    name: GAME,
    houseBot: HOUSE_BOT,
    open(req, s) {
      const setup = c.setupOf(GAME, req, s);
      return new Seat(c.makePlayer(GAME, make, setup, ["bid"]), setup);
    },
  });
}

module.exports = { GAME, HOUSE_BOT, Side, State, toBid, play };
