"""bidbot.BidBot (arena_sdk seed-compatibility shim)."""


from typing import Any


class BidBot:
    def __init__(self, username: str) -> None:
        self.username = username

    def get_bid(self, game_state: Any) -> int:
        raise NotImplementedError("override get_bid(self, game_state)")

    def bid_rejected(self, game_state: Any, bid: Any) -> None:
        """Called when a bid was invalid (in the arena the game is then lost; there is no re-ask)."""
