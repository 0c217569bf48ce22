"""A small Real TV bot: votes out the weakest other player, never itself (that is betrayal)."""

from arena_sdk import realtv


class Loyal(realtv.Bot):
    def vote_for_elimination(self, ctx: realtv.Context) -> realtv.PlayerContext | None:
        others = {pid: p for pid, p in ctx.active_players.items() if pid != ctx.own_id}
        return realtv.weakest(others)

    def vote_for_tie(self, ctx: realtv.Context) -> realtv.PlayerContext | None:
        others = {pid: p for pid, p in ctx.current_ties.items() if pid != ctx.own_id}
        return realtv.weakest(others) or realtv.weakest(ctx.current_ties)
