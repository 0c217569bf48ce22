// A small auction bot: races for the artist whose works come up soonest, and bids only on those.
"use strict";
const arena = require("arena");

class Collector {
  /** @param {import("arena").auction.Setup} setup */
  start(setup) {
    // The item index at which we would own enough works of an artist if we won them all.
    const doneAt = (artist) => {
      let seen = 0;
      for (let i = 0; i < setup.auctionItems.length; i++) {
        if (setup.auctionItems[i] === artist && ++seen === setup.requiredCount) return i;
      }
      return Infinity;
    };
    const artists = [...new Set(setup.auctionItems)].sort();
    this.target = artists.reduce((best, a) => (doneAt(a) < doneAt(best) ? a : best), artists[0]);
  }

  /** @param {import("arena").auction.State} state */
  bid(state) {
    if (state.item !== this.target) return 0;
    // Spread the money over the works still needed.
    return Math.floor(state.ownMoney / Math.max(1, state.needs(state.setup.ownName, this.target)));
  }
}

arena.serve({
  name: "js-collector",
  author: "arena examples",
  version: "0.1.0",
  games: [arena.auction.play(() => new Collector())],
});
