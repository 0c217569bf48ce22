"""Real TV bots as the contest wrote them: a ``Game.Player.Player`` subclass with
``getSteemUser()``, ``voteForElimination(context)`` and ``voteForTie(context)``.

Each of the 11 seats of a script builds one instance as the contest did,
``Cls("STR=<strength>", strength)``, then gives it the arena's id for that instance (so votes
naming it resolve). Every vote gets a seed-style ``Game.Context``; a vote may be a ``Player``, a
``PlayerContext`` or anything with an ``id``. The instance's ``score`` follows the arena's.
"""

from __future__ import annotations

from typing import Any

from arena_sdk import realtv


class PlayerBot(realtv.Bot):
    """One instance of the script."""

    def __init__(self, cls: type) -> None:
        self._cls = cls
        self.inner: Any = None

    def start(self, setup: realtv.Setup) -> None:
        p = self._cls(f"STR={setup.strength}", setup.strength)
        if setup.id:
            p.id = setup.id
        p.strength = setup.strength
        self.inner = p
        p.getSteemUser()  # as the contest asked it at start-up; a failure fails the seat

    def _context(self, ctx: realtv.Context) -> Any:
        from Game.Context import Context, GameContext, PlayerContext  # the shim

        seen: dict[str, Any] = {}

        def convert(players: dict[str, realtv.PlayerContext]) -> dict[str, Any]:
            out = {}
            for pid, p in players.items():
                pc = seen.get(pid)
                if pc is None:
                    pc = seen[pid] = PlayerContext(p.id, p.name, p.strength, p.score, [])
                out[pid] = pc
            return out

        c = Context()
        c.islandIndex = ctx.island_index
        c.game = GameContext(phaseIndex=ctx.game.phase_index, totalBots=ctx.game.total_bots, totalHumans=ctx.game.total_humans)
        c.activePlayers = convert(ctx.active_players)
        c.betrayers = convert(ctx.betrayers)
        c.eliminatedPlayers = convert(ctx.eliminated_players)
        c.currentTies = convert(ctx.current_ties)
        # previousMoves: (firstVote, tieBreak) as PlayerContext objects (None when none/unknown).
        natives = {**ctx.eliminated_players, **ctx.betrayers, **ctx.active_players, **ctx.current_ties}
        for pid, pc in seen.items():
            pc.previousMoves = [(seen.get(v.first_vote), seen.get(v.tie_vote))
                                for v in natives[pid].previous_moves]
        return c

    def _vote(self, ctx: realtv.Context, method: str) -> Any:
        p = self.inner
        p.score = ctx.own_score
        return getattr(p, method)(self._context(ctx))

    def vote_for_elimination(self, ctx: realtv.Context) -> Any:
        return self._vote(ctx, "voteForElimination")

    def vote_for_tie(self, ctx: realtv.Context) -> Any:
        return self._vote(ctx, "voteForTie")
