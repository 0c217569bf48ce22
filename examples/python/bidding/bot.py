"""A small bidding bot: spreads its money over the rounds it still needs to win."""

from arena_sdk import bidding


class Spreader(bidding.Bot):
    def bid(self, state: bidding.State) -> int:
        if state.own_money == 0:
            return 0
        share = state.own_money // max(1, state.places_to_win())
        # Outbid a broke opponent by one dollar, never bid more than we have.
        return max(1, min(state.own_money, share, state.opponent_money + 1))
