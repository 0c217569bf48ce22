"""Plays every game with no per-game code (arena_sdk.anygame): each move it answers the game's
action with every enum field at its first value after UNSPECIFIED (dynamite's rock) and every
other field at its default."""

from arena_sdk import anygame


class First(anygame.Bot):
    name = "anypython"

    def act(self, state: anygame.State) -> dict:
        action = anygame.GAME_MESSAGES[state.game][2]
        return {json: anygame.ENUMS[typ][1] for _, json, kind, typ, label in anygame.MESSAGES[action]
                if kind == "enum" and label == ""}
