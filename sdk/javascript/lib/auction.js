"use strict";
// Auction game: sealed bids for a known list of paintings; the first to own `requiredCount` works
// of one artist wins (rules: docs/rules/auction.md).
//
//     const arena = require("arena");
//     class Collector {
//       bid(state) {
//         const mine = state.ownCollection[state.item] ?? 0;
//         return Math.min(state.ownMoney, 10 * (mine + 1));
//       }
//     }
//     arena.serve({ name: "collector", games: [arena.auction.play(() => new Collector())] });
//
// The whole item list is in `state.setup.auctionItems`; `state.rounds` lists every round sold so
// far and `state.collections` counts what each player owns per artist. A bid above the player's
// money, negative or fractional, counts as 0. Each player also has a total clock (a chess clock):
// `state.ownRemainTime` (seconds) and `state.clockRemainingMs`.

const c = require("./common");

const GAME = "auction";
const HOUSE_BOT = "bots/auction/cmd/sample";

/**
 * @typedef {Object} RoundResult One sold item.
 * @property {number} itemIndex index of the item in the auction list, from 0
 * @property {string} artist its artist ("t0", "t1", ...)
 * @property {string|null} winner name of the player who bought it; null when nobody did
 * @property {number} bid what the winner paid; -1 when nobody won
 */

/**
 * @typedef {Object} AuctionFields
 * @property {number} artistsNum artists are "t0" .. "t{artistsNum-1}"
 * @property {number} requiredCount works of one artist that win
 * @property {string[]} auctionItems artist of every item, in auction order
 * @property {number} playerCount
 * @property {string[]} playerNames player names by seat (the keys of wealthTable)
 * @property {string} ownName
 * @property {number} startMoney
 */
/**
 * @typedef {import("./common").SeatInfo & AuctionFields} Setup The auction's initial state.
 */

/**
 * What an auction player sees before a bid: the result of the previous round and everything
 * before. One object per seat, updated in place.
 */
class State extends c.Clock {
  /** @param {Setup} setup */
  constructor(setup) {
    super();
    /** @type {Setup} */
    this.setup = setup;
    /** Index of the item now on sale, from 0. */
    this.itemIndex = 0;
    /** Artist of the item now on sale; "" once the auction is finished. */
    this.item = setup.auctionItems.length ? setup.auctionItems[0] : "";
    /** True when the auction is over (seen in `end`). */
    this.finished = false;
    /** The previous round: its artist ("" before the first round)... */
    this.bidItem = "";
    /** ...its winner (null when nobody won)... @type {string|null} */
    this.bidWinner = null;
    /** ...and the winning bid (-1 when nobody won). */
    this.winningBid = -1;
    /** Money of every player by name; -1 for a disqualified player. @type {Record<string, number>} */
    this.wealthTable = {};
    for (const n of setup.playerNames) c.put(this.wealthTable, n, setup.startMoney);
    /** Remaining total clock of every player by name, in seconds. @type {Record<string, number>} */
    this.remainTime = {};
    this.ownMoney = setup.startMoney;
    /** Name of the winner once finished; "" for a draw. */
    this.gameWinner = "";
    /** Every sold round so far, oldest first. Do not modify. @type {RoundResult[]} */
    this.rounds = [];
    /** Works owned per player and artist: collections[name][artist] = count. @type {Record<string, Record<string, number>>} */
    this.collections = {};
    for (const n of setup.playerNames) c.put(this.collections, n, {});
  }

  /** This player's remaining total clock in seconds, as of the previous round. */
  get ownRemainTime() {
    const t = this.remainTime[this.setup.ownName];
    return typeof t === "number" ? t : this.clockRemainingMs / 1000;
  }

  /** Works this player owns per artist. @returns {Record<string, number>} */
  get ownCollection() {
    let own = this.collections[this.setup.ownName];
    if (own === undefined) c.put(this.collections, this.setup.ownName, (own = {}));
    return own;
  }

  /** How many more works of artist the named player must win. */
  needs(player, artist) {
    const owned = Object.hasOwn(this.collections, player) ? this.collections[player][artist] ?? 0 : 0;
    return Math.max(0, this.setup.requiredCount - owned);
  }
}

/**
 * @typedef {Object} Player Plays one auction.
 * @property {(state: State) => number | Promise<number>} bid the sealed bid for `state.item`
 * @property {(setup: Setup) => void} [start] called once when the auction opens
 * @property {(outcome: import("./common").Outcome<State>) => void} [end] called once when it is over; `outcome.state` has the final round
 */

/**
 * Checks a bid: any number (the engine turns negatives, fractions, NaN and bids above the
 * player's money into 0) or bigint, returned as the JSON value of the wire's double.
 * Throws InvalidAnswer.
 */
function toBid(v) {
  if (typeof v === "bigint") v = Number(v);
  if (typeof v !== "number") throw new c.InvalidAnswer(`bid() returned ${c.describeValue(v)}, not a number`);
  if (Number.isFinite(v)) return v;
  return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
}

class Seat {
  constructor(player, setup) {
    this.player = player;
    this.setup = setup;
    this.state = new State(setup);
  }

  observe(o) {
    const st = this.state;
    const itemIndex = c.int(c.field(o, "itemIndex"));
    const bidItem = c.str(c.field(o, "bidItem"));
    const winner = c.str(c.field(o, "bidWinner")) || null;
    const winningBid = c.int(c.field(o, "winningBid"));
    const prev = itemIndex - 1;
    const last = st.rounds.length ? st.rounds[st.rounds.length - 1] : undefined;
    if (bidItem !== "" && (last === undefined || last.itemIndex < prev)) {
      st.rounds.push(Object.freeze({ itemIndex: prev, artist: bidItem, winner, bid: winningBid }));
      if (winner !== null) {
        let owned = Object.hasOwn(st.collections, winner) ? st.collections[winner] : undefined;
        if (owned === undefined) c.put(st.collections, winner, (owned = {}));
        c.put(owned, bidItem, (owned[bidItem] ?? 0) + 1);
      }
    }
    st.itemIndex = itemIndex;
    st.item = c.str(c.field(o, "item"));
    st.finished = c.bool(c.field(o, "finished"));
    st.bidItem = bidItem;
    st.bidWinner = winner;
    st.winningBid = winningBid;
    const wealth = {};
    const wt = c.obj(c.field(o, "wealthTable"));
    for (const k in wt) c.put(wealth, k, c.int(wt[k]));
    st.wealthTable = wealth;
    const times = {};
    const rt = c.obj(c.field(o, "remainTime"));
    for (const k in rt) c.put(times, k, c.dbl(rt[k]));
    st.remainTime = times;
    st.ownMoney = c.int(c.field(o, "ownMoney"));
    st.gameWinner = c.str(c.field(o, "gameWinner"));
  }

  ask(o, req, now) {
    this.observe(o);
    this.state._tick(req, now);
    return this.player.bid(this.state);
  }

  encode(v) {
    const b = toBid(v);
    return b === 0 ? {} : { bid: b };
  }

  end(req, o) {
    if (o !== undefined) this.observe(o);
    return c.callHook(this.player, "end", c.outcomeOf(req, this.state));
  }
}

/**
 * The auction entry of `serve`'s games: `make` makes a fresh player for every seat the host
 * opens (a factory `(setup) => player`, or a class). The player may also be a plain function
 * `(state) => bid`.
 * @param {((setup: Setup) => Player | ((state: State) => number)) | (new (setup: Setup) => Player)} make
 */
function play(make) {
  if (typeof make !== "function") throw new TypeError("auction.play needs a factory: auction.play(() => new MyPlayer())");
  return Object.freeze({
    name: GAME,
    houseBot: HOUSE_BOT,
    open(req, s) {
      const setup = c.setupOf(GAME, req, s);
      return new Seat(c.makePlayer(GAME, make, setup, ["bid"]), setup);
    },
  });
}

module.exports = { GAME, HOUSE_BOT, State, toBid, play };
