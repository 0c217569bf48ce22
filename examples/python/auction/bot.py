"""A small auction bot: races for the artist whose works come up soonest, and bids only on those."""

from arena_sdk import auction


class Collector(auction.Bot):
    def start(self, setup: auction.Setup) -> None:
        def done_at(artist: str) -> int:
            """Item index at which we would own enough works of artist if we won them all."""
            where = [i for i, a in enumerate(setup.auction_items) if a == artist]
            return where[setup.required_count - 1] if len(where) >= setup.required_count else len(where) + 10**9

        self.target = min(sorted(set(setup.auction_items)), key=done_at)

    def bid(self, state: auction.State) -> int:
        if state.item != self.target:
            return 0
        # Spread the money over the works still needed.
        return state.own_money // state.needs(state.setup.own_name, self.target)
