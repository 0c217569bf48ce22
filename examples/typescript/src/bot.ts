// The bot: the kit (src/arena) plus one strategy per game (src/<game>.ts).
import "./arena/guard"; // first: keeps the real stdout for the handshake line
import { serve } from "./arena";
import { dynamite } from "./dynamite";
import { finger } from "./finger";
import { bidding } from "./bidding";
import { auction } from "./auction";
import { realtv } from "./realtv";

serve({
  name: "TsKit",
  author: "arena examples",
  version: "0.1.0",
  strategies: { dynamite, finger, bidding, auction, realtv },
  onEnd(seat, end) {
    console.error(`end (${seat.matchId}, ${seat.seat}) ${seat.game}: ${end.result} score ${end.score}`);
  },
});
