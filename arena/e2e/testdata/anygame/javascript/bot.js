// Plays every game with no per-game code (arena.anygame): each move it answers the game's
// action with every enum field at its first value after UNSPECIFIED (dynamite's rock) and
// every other field at its default.
const arena = require("arena");
const { wire } = arena;

function first(state) {
  const out = {};
  for (const f of wire.MESSAGES[wire.GAME_MESSAGES[state.game].action]) {
    if (f.kind === "enum" && f.label === "") out[f.json] = wire.ENUMS[f.type][1];
  }
  return out;
}

arena.serve({ name: "anyjs", games: arena.anygame.playAll(() => first) });
