// A small bidding bot: spreads its money over the rounds it still needs to win.
"use strict";
const arena = require("arena");

class Spreader {
  /** @param {import("arena").bidding.State} state */
  bid(state) {
    if (state.ownMoney === 0) return 0;
    const share = Math.floor(state.ownMoney / Math.max(1, state.placesToWin()));
    // Outbid a broke opponent by one dollar, never bid more than we have.
    return Math.max(1, Math.min(state.ownMoney, share, state.opponentMoney + 1));
  }
}

arena.serve({
  name: "js-spreader",
  author: "arena examples",
  version: "0.1.0",
  games: [arena.bidding.play(() => new Spreader())],
});
