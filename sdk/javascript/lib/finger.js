"use strict";
// Finger game: hit the opponent's hands or switch your own fingers (rules: docs/rules/finger.md).
//
//     const arena = require("arena");
//     const { Move } = arena.finger;
//     class Hitter {
//       move(state) { return state.legalMoves()[0]; }   // Move.LEFT_TO_RIGHT, Move.SWITCH(2, 3) ...
//     }
//     arena.serve({ name: "hitter", games: [arena.finger.play(() => new Hitter())] });
//
// `Move.LEFT_TO_RIGHT` means: my LEFT hand hits the opponent's RIGHT hand. `Move.SWITCH(l, r)`
// sets my hands to l and r fingers (same total). A match is a series of games; `state.history`
// holds the moves of the current game only, with who made each one.

const c = require("./common");
const { ENUMS } = require("./wire");

const GAME = "finger";
const HOUSE_BOT = "bots/finger/cmd/random";

/** @typedef {"LEFT_TO_LEFT"|"LEFT_TO_RIGHT"|"RIGHT_TO_LEFT"|"RIGHT_TO_RIGHT"} Hit A hit: my hand (first word) hits the opponent's hand (last word). */

/** A switch: set my hands to exactly `left` and `right` fingers. */
class Switch {
  /** @param {number} left @param {number} right */
  constructor(left, right) {
    this.left = left;
    this.right = right;
    Object.freeze(this);
  }

  toString() {
    return `SWITCH(${this.left}, ${this.right})`;
  }
}

/** @typedef {Hit | Switch} FingerMove What `move` returns (an array `[left, right]` is read as a switch too). */

const LEFT_TO_LEFT = "LEFT_TO_LEFT";
const LEFT_TO_RIGHT = "LEFT_TO_RIGHT";
const RIGHT_TO_LEFT = "RIGHT_TO_LEFT";
const RIGHT_TO_RIGHT = "RIGHT_TO_RIGHT";
/** The four hits. */
const HITS = Object.freeze([LEFT_TO_LEFT, LEFT_TO_RIGHT, RIGHT_TO_LEFT, RIGHT_TO_RIGHT]);

/** The seed's spelling: `Move.LEFT_TO_RIGHT` ... and `Move.SWITCH(left, right)`. */
const Move = Object.freeze({
  LEFT_TO_LEFT,
  LEFT_TO_RIGHT,
  RIGHT_TO_LEFT,
  RIGHT_TO_RIGHT,
  /** @param {number} left @param {number} right @returns {Switch} */
  SWITCH: (left, right) => new Switch(left, right),
});

// Attacking and target hand of each hit (0 left, 1 right).
const HANDS = new Map([[LEFT_TO_LEFT, [0, 0]], [LEFT_TO_RIGHT, [0, 1]], [RIGHT_TO_LEFT, [1, 0]], [RIGHT_TO_RIGHT, [1, 1]]]);

const WIRE = ENUMS.FingerMove;
const WIRE_NAMES = c.enumNames(WIRE);
const SWITCH_WIRE = 5;
const HIT_OF_WIRE = [undefined, LEFT_TO_LEFT, LEFT_TO_RIGHT, RIGHT_TO_LEFT, RIGHT_TO_RIGHT];
const WIRE_OF_HIT = new Map([[LEFT_TO_LEFT, WIRE[1]], [LEFT_TO_RIGHT, WIRE[2]], [RIGHT_TO_LEFT, WIRE[3]], [RIGHT_TO_RIGHT, WIRE[4]]]);
// Names accepted as strings: "LEFT_TO_RIGHT" and the seed Enum's values "LEFT TO RIGHT".
const HIT_BY_NAME = new Map([...HITS.map((h) => [h, h]), ...HITS.map((h) => [h.replace(/_/g, " "), h])]);

/**
 * @typedef {Object} HistoryEntry One move of the current game.
 * @property {string} player name of the player who moved
 * @property {FingerMove} move the move
 * @property {boolean} own true when this player made the move (names may repeat in self-play)
 */

/**
 * @typedef {Object} FingerFields
 * @property {number} games games in the match
 * @property {number} maxRounds moves after which a game ends with both players losing
 * @property {string} ownName
 * @property {string} opponentName
 */
/**
 * @typedef {import("./common").SeatInfo & FingerFields} Setup A finger match: a series of games.
 */

/** What a finger player sees before its move. One object per seat, updated in place. */
class State extends c.Clock {
  /** @param {Setup} setup */
  constructor(setup) {
    super();
    /** @type {Setup} */
    this.setup = setup;
    /** Game within the match, from 1. */
    this.game = 0;
    /** True on this player's first move of a new game. */
    this.newGame = false;
    /** Move number within the current game, from 1: the move about to be played. */
    this.round = 0;
    /** Name of the player who started the current game. */
    this.startingPlayer = "";
    /** True when this player started the current game. */
    this.started = false;
    this.ownLeft = 1;
    this.ownRight = 1;
    this.opponentLeft = 1;
    this.opponentRight = 1;
    /** Moves of the current game, oldest first. A new array each game; do not modify. @type {HistoryEntry[]} */
    this.history = [];
    /** Games of the match won, lost, and ended by the move cap (both lose). */
    this.gamesWon = 0;
    this.gamesLost = 0;
    this.gamesBothLost = 0;
  }

  get ownName() {
    return this.setup.ownName;
  }

  get opponentName() {
    return this.setup.opponentName;
  }

  /**
   * Whether move is legal now (an illegal move loses the game at once).
   * @param {FingerMove} move
   */
  legal(move) {
    const own = [this.ownLeft, this.ownRight];
    const hands = typeof move === "string" ? HANDS.get(move) : undefined;
    if (hands !== undefined) return own[hands[0]] > 0 && [this.opponentLeft, this.opponentRight][hands[1]] > 0;
    if (Array.isArray(move) && move.length === 2) move = new Switch(move[0], move[1]);
    if (!(move instanceof Switch)) return false;
    const { left, right } = move;
    return Number.isInteger(left) && Number.isInteger(right) && left >= 0 && left <= 5 && right >= 0 && right <= 5 &&
      left + right === own[0] + own[1] && !(left === own[0] && right === own[1]) && !(left === own[1] && right === own[0]);
  }

  /**
   * Every legal move now: hits first, then switches by growing left hand.
   * @returns {FingerMove[]}
   */
  legalMoves() {
    /** @type {FingerMove[]} */
    const moves = HITS.filter((h) => this.legal(h));
    const total = this.ownLeft + this.ownRight;
    for (let left = 0; left <= 5; left++) {
      const s = new Switch(left, total - left);
      if (this.legal(s)) moves.push(s);
    }
    return moves;
  }
}

/**
 * @typedef {Object} Player Plays one finger match (all its games).
 * @property {(state: State) => FingerMove | Promise<FingerMove>} move the move now
 * @property {(setup: Setup) => void} [start] called once when the match opens
 * @property {(outcome: import("./common").Outcome<State>) => void} [end] called once when it is over
 */

function fromWire(a) {
  const m = c.enumOf(c.field(a, "move"), WIRE_NAMES, WIRE.length);
  const hit = HIT_OF_WIRE[m];
  return hit !== undefined ? hit : new Switch(c.int(c.field(a, "switchLeft")), c.int(c.field(a, "switchRight")));
}

// A switch's finger count: a whole number; out-of-range counts stay out of range (the engine
// rejects them) rather than wrapping into a legal one.
function count(n, move) {
  if (typeof n === "bigint") n = Number(n);
  if (typeof n !== "number" || !Number.isInteger(n)) {
    throw new c.InvalidAnswer(`move() returned the switch ${c.describeValue(move)}: counts must be whole numbers`);
  }
  return Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, n));
}

/**
 * Checks an answer: a hit's name, a Switch, an array `[left, right]` or an object
 * `{left, right}`. Throws InvalidAnswer.
 * @returns {FingerMove}
 */
function toMove(v) {
  if (typeof v === "string") {
    const hit = HIT_BY_NAME.get(v);
    if (hit !== undefined) return hit;
  } else if (v instanceof Switch) {
    return new Switch(count(v.left, v), count(v.right, v));
  } else if (Array.isArray(v) && v.length === 2) {
    return new Switch(count(v[0], v), count(v[1], v));
  } else if (c.isObj(v) && "left" in v && "right" in v) {
    return new Switch(count(v.left, v), count(v.right, v));
  }
  throw new c.InvalidAnswer(`move() returned ${c.describeValue(v)}, not Move.LEFT_TO_LEFT, Move.LEFT_TO_RIGHT, ` +
    "Move.RIGHT_TO_LEFT, Move.RIGHT_TO_RIGHT or Move.SWITCH(left, right)");
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
    if (newGame || game !== st.game) st.history = [];
    st.game = game;
    st.newGame = newGame;
    st.round = c.int(c.field(o, "round"));
    st.startingPlayer = c.str(c.field(o, "startingPlayer"));
    st.started = c.bool(c.field(o, "started"));
    st.ownLeft = c.int(c.field(o, "ownLeft"));
    st.ownRight = c.int(c.field(o, "ownRight"));
    st.opponentLeft = c.int(c.field(o, "opponentLeft"));
    st.opponentRight = c.int(c.field(o, "opponentRight"));
    st.gamesWon = c.int(c.field(o, "gamesWon"));
    st.gamesLost = c.int(c.field(o, "gamesLost"));
    st.gamesBothLost = c.int(c.field(o, "gamesBothLost"));
    for (const e of c.list(c.field(o, "recent"))) {
      const entry = c.obj(e);
      st.history.push(Object.freeze({
        player: c.str(c.field(entry, "player")),
        move: fromWire(c.obj(c.field(entry, "action"))),
        own: c.bool(c.field(entry, "own")),
      }));
    }
  }

  ask(o, req, now) {
    this.observe(o);
    this.state._tick(req, now);
    return this.player.move(this.state);
  }

  encode(v) {
    const m = toMove(v);
    if (m instanceof Switch) {
      const out = { move: WIRE[SWITCH_WIRE] };
      if (m.left !== 0) out.switchLeft = m.left;
      if (m.right !== 0) out.switchRight = m.right;
      return out;
    }
    return { move: WIRE_OF_HIT.get(m) };
  }

  end(req, o) {
    if (o !== undefined) this.observe(o);
    return c.callHook(this.player, "end", c.outcomeOf(req, this.state));
  }
}

/**
 * The finger entry of `serve`'s games: `make` makes a fresh player for every seat the host opens
 * (a factory `(setup) => player`, or a class). The player may also be a plain function
 * `(state) => move`.
 * @param {((setup: Setup) => Player | ((state: State) => FingerMove)) | (new (setup: Setup) => Player)} make
 */
function play(make) {
  if (typeof make !== "function") throw new TypeError("finger.play needs a factory: finger.play(() => new MyPlayer())");
  return Object.freeze({
    name: GAME,
    houseBot: HOUSE_BOT,
    open(req, s) {
      const setup = c.setupOf(GAME, req, s);
      return new Seat(c.makePlayer(GAME, make, setup, ["move"]), setup);
    },
  });
}

module.exports = {
  GAME, HOUSE_BOT, Move, Switch, HITS, LEFT_TO_LEFT, LEFT_TO_RIGHT, RIGHT_TO_LEFT, RIGHT_TO_RIGHT, State, toMove, play,
};
