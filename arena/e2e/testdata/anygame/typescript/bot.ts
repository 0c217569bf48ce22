// Plays every game with no per-game code (BotOptions.anyGame): each move it answers the
// game's action with every enum field at its first value after UNSPECIFIED (dynamite's rock)
// and every other field at its default.
import { serve, ENUMS, GAME_MESSAGES, MESSAGES } from "arena";

serve({
  name: "anyts",
  author: "arena tests",
  strategies: {},
  anyGame(seat) {
    const out: Record<string, string> = {};
    for (const f of MESSAGES[GAME_MESSAGES[seat.game].action]) {
      if (f.kind === "enum" && f.label === "") out[f.name] = ENUMS[f.type][1];
    }
    return out;
  },
});
