"""A small finger bot: knocks out a hand when it can, otherwise plays its first legal move."""

from arena_sdk import finger
from arena_sdk.finger import Move

# Which of my hands attacks and which of the opponent's hands is hit, per hit.
HITS = {
    Move.LEFT_TO_LEFT: ("own_left", "opponent_left"),
    Move.LEFT_TO_RIGHT: ("own_left", "opponent_right"),
    Move.RIGHT_TO_LEFT: ("own_right", "opponent_left"),
    Move.RIGHT_TO_RIGHT: ("own_right", "opponent_right"),
}


class Finisher(finger.Bot):
    def move(self, state: finger.State) -> finger.FingerMove:
        legal = state.legal_moves()
        for hit in legal:
            if isinstance(hit, finger.Hit):
                mine, theirs = HITS[hit]
                if getattr(state, mine) + getattr(state, theirs) >= 5:
                    return hit  # that hand is lost for the opponent
        return legal[0]
