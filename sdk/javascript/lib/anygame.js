"use strict";
// The generic path: a player of any game, by name, with no per-game code. It reads the game's
// setup and each observation through the generated tables (lib/wire.js) into plain objects
// with every field (lowerCamelCase names, enums by name, 64-bit integers as numbers, absent
// fields at their defaults) and sends the action it returns as it is, as a raw JSON-lines bot
// writes it:
//
//     const arena = require("arena");
//     const first = (state) => ({ move: arena.wire.ENUMS.DynamiteMove[1] });
//     arena.serve({ name: "any", games: arena.anygame.playAll(() => first) });
//
// A game added to the protocol is played once scripts/generate.sh has run: playAll covers
// every game of wire.GAMES.

const c = require("./common");
const wire = require("./wire");

const { decode } = c;

/** What a player of any game sees before a move. One object per seat, updated in place. */
class State extends c.Clock {
  constructor(game, setup) {
    super();
    /** The game's registry name. */
    this.game = game;
    /** The match's fixed setup: the seat's fields (SeatInfo) and the game's setup message. */
    this.setup = setup;
    /** What changed since the seat's previous move (the game's observation message). */
    this.observation = null;
  }
}

class Seat {
  constructor(game, player, setup) {
    this.messages = wire.GAME_MESSAGES[game];
    this.player = player;
    this.setup = setup;
    this.state = new State(game, setup);
  }

  ask(o, req, now) {
    this.state.observation = decode(this.messages.observation, o);
    this.state._tick(req, now);
    return this.player.act(this.state);
  }

  encode(a) {
    if (typeof a === "string") {
      try {
        a = JSON.parse(a);
      } catch (e) {
        throw new c.InvalidAnswer(`act() returned a string that is not JSON (${e.message}): ${c.describeValue(a)}`);
      }
    }
    if (!c.isObj(a)) throw new c.InvalidAnswer(`act() returned ${c.describeValue(a)}, not a ${this.messages.action} object`);
    return a;
  }

  end(req, o) {
    if (o !== undefined) this.state.observation = decode(this.messages.observation, o);
    return c.callHook(this.player, "end", c.outcomeOf(req, this.state));
  }
}

/**
 * The entry of `serve`'s games for the named game: `make` makes a fresh player for every seat
 * (a factory `(setup) => player`, or a class); a player has `act(state)` returning the action
 * object (or its JSON text), or is that function itself.
 * @param {string} game a game of wire.GAMES
 * @param {Function} make
 */
function play(game, make) {
  if (!wire.GAMES.includes(game)) {
    throw new TypeError(`anygame.play: the protocol has no game ${JSON.stringify(game)} (games: ${wire.GAMES.join(", ")})`);
  }
  if (typeof make !== "function") throw new TypeError(`anygame.play needs a factory: anygame.play(${JSON.stringify(game)}, () => player)`);
  return Object.freeze({
    name: game,
    houseBot: "<another bot>",
    open(req, s) {
      const setup = c.setupOf(game, req, s);
      return new Seat(game, c.makePlayer(game, make, setup, ["act"]), setup);
    },
  });
}

/** One entry per game of the protocol, each playing `make`'s players. */
function playAll(make) {
  return wire.GAMES.map((g) => play(g, make));
}

module.exports = { play, playAll, decode, State };
