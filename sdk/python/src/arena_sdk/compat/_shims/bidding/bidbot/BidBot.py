"""bidbot.BidBot (arena_sdk seed-compatibility shim)."""


class BidBot:
    def __init__(self, username):
        self.username = username

    def get_bid(self, game_state):
        raise NotImplementedError("override get_bid(self, game_state)")

    def bid_rejected(self, game_state, bid):
        """Called when a bid was invalid (in the arena the game is then lost; there is no re-ask)."""
