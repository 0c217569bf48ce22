"""Each seed-compatibility shim exposes the whole public surface of the original module it stands
in for. The expected surfaces are data, each list saying where it was taken from; a name missing
from a shim fails its test (real contest bots use these names and would crash)."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Iterator

import pytest

from arena_sdk.compat import _shimpath


@pytest.fixture(autouse=True)
def isolated_imports() -> Iterator[None]:
    path, modules = list(sys.path), set(sys.modules)
    yield
    sys.path[:] = path
    for name in set(sys.modules) - modules:
        if not name.startswith("arena_sdk"):
            del sys.modules[name]


def shim(style: str, module: str) -> Any:
    _shimpath.install(style)
    return importlib.import_module(module)


def missing(obj: Any, names: list[str]) -> list[str]:
    return [n for n in names if not hasattr(obj, n)]


# -- finger --------------------------------------------------------------------------------------
# From the finger contest (lukasotocerny/finger-game, 2018) as its published README ("helpful
# methods of the GenericPlayer class", the Move values; docs/rules/finger.md) and its bot files
# (the four modules, GenericPlayer.__init__(self, name), Move.SWITCH, test_player; README.md
# "Seed-compatible bots") document it; issue 11: generic_player exported `logger`.

FINGER_MODULES = {
    "generic_player": ["GenericPlayer", "Move", "logger"],
    "moves": ["Move"],
    "game": ["Game"],
    "test_player": ["test_player"],
}
FINGER_GENERIC_PLAYER = ["name", "get_my_left", "get_my_right", "get_opponent_left", "get_opponent_right",
                         "get_history", "get_current_round", "get_starting_player", "move"]
FINGER_MOVES = {"LEFT_TO_RIGHT": "LEFT TO RIGHT", "LEFT_TO_LEFT": "LEFT TO LEFT",
                "RIGHT_TO_RIGHT": "RIGHT TO RIGHT", "RIGHT_TO_LEFT": "RIGHT TO LEFT"}


@pytest.mark.parametrize("module", sorted(FINGER_MODULES))
def test_finger_module_surface(module: str) -> None:
    mod = shim("finger", module)
    assert missing(mod, FINGER_MODULES[module]) == [], f"finger shim {module} lacks these names"


def test_finger_generic_player_surface() -> None:
    gp = shim("finger", "generic_player")
    assert missing(gp.GenericPlayer("black"), FINGER_GENERIC_PLAYER) == []
    assert gp.GenericPlayer("black").name == "black"
    import logging

    assert isinstance(gp.logger, logging.Logger)
    gp.logger.info("a bot may log through it")
    t = shim("finger", "test_player")
    assert isinstance(t.test_player, gp.GenericPlayer)


def test_finger_moves_surface() -> None:
    Move = shim("finger", "moves").Move
    assert {m.name: m.value for m in Move} == FINGER_MOVES
    assert Move.SWITCH(3, 4) == (3, 4)


# -- bidding -------------------------------------------------------------------------------------
# From the PyPI package bidbot 0.1.3 as its published description (its example bot's imports and
# the GameState fields; docs/rules/bidding.md) and its bot files (BidBot(username), get_bid,
# bid_rejected, GameState constants and methods, connect) document it.

BIDDING_MODULES = {
    "bidbot.BidBot": ["BidBot"],
    "bidbot.GameState": ["GameState"],
    "bidbot.BotClient": ["connect"],
}
BIDBOT_METHODS = ["get_bid", "bid_rejected"]
GAMESTATE_CONSTANTS = {"PLAYER_A": 0, "PLAYER_B": 1, "UNKNOWN": 3}
GAMESTATE_METHODS = ["is_player_a", "get_opponent_name", "get_opponent_username"]
GAMESTATE_FIELDS = ["opponent_money", "my_money", "bottle_position", "opponents_bids", "my_bids",
                    "start_money", "rounds_won", "rounds_lost", "self"]
GAMESTATE_SELF_FIELDS = ["opponent_username", "player_identifier"]  # game_state.self.<field>


@pytest.mark.parametrize("module", sorted(BIDDING_MODULES))
def test_bidding_module_surface(module: str) -> None:
    assert missing(shim("bidding", module), BIDDING_MODULES[module]) == []


def test_bidding_class_surfaces() -> None:
    BidBot = shim("bidding", "bidbot.BidBot").BidBot
    GameState = shim("bidding", "bidbot.GameState").GameState
    assert missing(BidBot("me"), BIDBOT_METHODS) == []
    assert {k: getattr(GameState, k, None) for k in GAMESTATE_CONSTANTS} == GAMESTATE_CONSTANTS
    gs = GameState()
    assert missing(gs, GAMESTATE_METHODS + GAMESTATE_FIELDS) == []
    assert missing(gs.self, GAMESTATE_SELF_FIELDS) == []


# -- auction -------------------------------------------------------------------------------------
# From the NYU auction game (2018) as its published architecture notes (the initial state a client
# receives; docs/rules/auction.md) and its client (Client(name, (host, port)), its fields and
# methods) document it.

AUCTION_MODULES = {"client": ["Client"]}
CLIENT_FIELDS = ["artists_num", "required_count", "auction_items", "player_count", "wealth_table"]
CLIENT_METHODS = ["make_bid", "receive_round", "close"]


def test_auction_client_surface() -> None:
    client = shim("auction", "client")
    assert missing(client, AUCTION_MODULES["client"]) == []
    from arena_sdk import auction
    from arena_sdk.compat import auction as bridge

    setup = auction.Setup(match_id="m", seat=0, players=("a", "b"), deadline=1.0, clock=0.0, artists_num=4,
                          required_count=3, auction_items=("t0", "t1"), player_count=2, player_names=("a", "b"),
                          own_name="a", start_money=100)
    bridge._local.channel = bridge._Channel(setup)
    try:
        c = client.Client("a", ("localhost", 9000))
    finally:
        bridge._local.channel = None
    assert missing(c, CLIENT_FIELDS + CLIENT_METHODS) == []
    assert (c.artists_num, c.required_count, c.auction_items, c.player_count, c.wealth_table) == (
        4, 3, ["t0", "t1"], 2, {"a": 100, "b": 100})


# -- realtv --------------------------------------------------------------------------------------
# From the original engine, steemian/realTV project/Game/{__init__,Const,Player,Context,Island}.py
# (the contest's versions, early and late: e.g. Player.describe() and decide() of the early ones,
# shortDescribe(), longDescribe(), decideVote() and decideTie() of the late ones), together with
# the contest's published API post (the constants and fields it documents; docs/rules/realtv.md)
# and issue 11.

REALTV_PACKAGE = ["Const", "Context", "GameContext", "PlayerContext", "Player", "Island"]
REALTV_MODULES = {
    "Game.Const": ["Const"],
    "Game.Player": ["Player"],
    "Game.Context": ["PlayerContext", "GameContext", "historyContext", "Context"],
    "Game.Island": ["Island"],
}
# The seed's values win where the seed gives them.
CONST_SEED_VALUES = {"PLAYERS_PER_ISLAND": 12, "PHASES_PER_GAME": 100, "SCORE_FOR_TRIAL": 3,
                     "SCORE_FOR_LASTMAN": 100, "SCORE_FOR_EACH_TRAITOR": 0, "SCORE_FOR_ALL_TRAITORS": 100,
                     "INSTANCES_STRENGTH": list(range(11)), "INSTANCES_PER_PLAYER": 11,
                     "DIFFICULTY_A": 7, "DIFFICULTY_B": -3}
CONST_ORIGINAL_ONLY = ["MIN_BOTS_PER_ISLAND", "MAX_HUMANS_PER_ISLAND", "STARTING_SCORE", "NB_RUNS_FOR_STATS",
                       "RANDOM_ID_LEN", "SCORE_FOR_TRAITOR"]
PLAYER_SURFACE = ["id", "name", "score", "strength", "decision", "tieDecision", "shortDescribe", "longDescribe",
                  "describe", "getSteemUser", "voteForElimination", "voteForTie", "decide", "decideVote",
                  "decideTie", "decisionCheck"]
PLAYER_CONTEXT_SURFACE = ["id", "name", "strength", "score", "previousMoves", "shortDescribe", "longDescribe",
                          "describe"]
GAME_CONTEXT_SURFACE = ["totalBots", "totalHumans", "phaseIndex"]
HISTORY_CONTEXT_SURFACE = ["playerActions"]
CONTEXT_SURFACE = ["islandIndex", "game", "history", "activePlayers", "betrayers", "eliminatedPlayers",
                   "currentTies", "describe", "update", "registerTies"]


def test_realtv_package_surface() -> None:
    assert missing(shim("realtv", "Game"), REALTV_PACKAGE) == []


@pytest.mark.parametrize("module", sorted(REALTV_MODULES))
def test_realtv_module_surface(module: str) -> None:
    assert missing(shim("realtv", module), REALTV_MODULES[module]) == []


def test_realtv_const_surface() -> None:
    Const = shim("realtv", "Game.Const").Const
    assert {k: getattr(Const, k, None) for k in CONST_SEED_VALUES} == CONST_SEED_VALUES
    assert missing(Const, CONST_ORIGINAL_ONLY) == []
    assert Const.STARTING_SCORE == 0 and Const.RANDOM_ID_LEN == 10


def test_realtv_player_and_context_surfaces() -> None:
    Player = shim("realtv", "Game.Player").Player
    ctxmod = shim("realtv", "Game.Context")

    class Bot(Player):
        def voteForElimination(self, context: Any) -> Any:
            return min(context.activePlayers.values(), key=lambda p: p.strength)

        def voteForTie(self, context: Any) -> Any:
            return max(context.currentTies.values(), key=lambda p: p.strength)

    me, other = Bot("STR=3", 3), Bot("STR=8", 8)
    assert missing(me, PLAYER_SURFACE) == []
    assert len(me.id) == 10 and me.name == "Bot" and me.score == 0
    for text in (me.shortDescribe(), me.longDescribe(), me.describe()):
        assert me.id in text

    class Island:  # what the original engine's Context.update read
        islandIndex = 2
        activePlayers = {me.id: me, other.id: other}
        betrayers: dict[str, Any] = {}
        eliminatedPlayers: dict[str, Any] = {}

    game = ctxmod.GameContext(phaseIndex=4, totalBots=9, totalHumans=22)
    ctx = ctxmod.Context(Island(), game)
    assert missing(ctx, CONTEXT_SURFACE) == []
    assert missing(game, GAME_CONTEXT_SURFACE) == []
    assert missing(ctxmod.historyContext(), HISTORY_CONTEXT_SURFACE) == []
    pc = ctx.activePlayers[other.id]
    assert missing(pc, PLAYER_CONTEXT_SURFACE) == []
    for text in (pc.shortDescribe(), pc.longDescribe(), pc.describe(), ctx.describe()):
        assert other.id in text
    assert ctx.islandIndex == 2 and game.phaseIndex == 4
    assert me.decideVote(ctx) is ctx.activePlayers[me.id]  # the weakest: itself
    ctx.registerTies([ctx.activePlayers[me.id], pc])
    assert me.decideTie(ctx) is pc
    with pytest.raises(RuntimeError, match="host runs the islands"):
        shim("realtv", "Game").Island()


# -- several bot classes in one file -------------------------------------------------------------


def test_several_seed_classes_error_lists_every_candidate(write_bot) -> None:  # type: ignore[no-untyped-def]
    """Base plays; Careful and Other are variants. The error names all three (the base that
    another class subclasses included) and how to pick each."""
    from arena_sdk import loader

    bot = write_bot("""
        from Game.Player import Player

        class Base(Player):
            def getSteemUser(self):
                return ""
            def voteForElimination(self, context):
                return min(context.activePlayers.values(), key=lambda p: p.strength)
            def voteForTie(self, context):
                return min(context.currentTies.values(), key=lambda p: p.strength)

        class Careful(Base):
            pass

        class Other(Player):
            pass
    """, "tv_bots.py")
    with pytest.raises(loader.LoadError) as e:
        loader.load(str(bot))
    msg = str(e.value)
    assert "several realtv bots (Base, Careful, Other)" in msg, msg
    for pick in ("tv_bots.py:Base", "tv_bots.py:Careful", "tv_bots.py:Other"):
        assert pick in msg, msg
    assert loader.load(f"{bot}:Base").entries["realtv"].name == "Base"


def test_several_native_classes_error_lists_every_candidate(write_bot) -> None:  # type: ignore[no-untyped-def]
    from arena_sdk import loader

    bot = write_bot("""
        from arena_sdk import dynamite

        class Rock(dynamite.Bot):
            def move(self, state):
                return "R"

        class SmartRock(Rock):
            pass

        class Paper(dynamite.Bot):
            def move(self, state):
                return "P"
    """, "native_bots.py")
    with pytest.raises(loader.LoadError) as e:
        loader.load(str(bot))
    msg = str(e.value)
    assert "several dynamite bots (Paper, Rock, SmartRock)" in msg, msg
    assert "native_bots.py:Rock" in msg, msg


def test_one_leaf_over_a_helper_base_still_plays(write_bot) -> None:  # type: ignore[no-untyped-def]
    from arena_sdk import loader

    bot = write_bot("""
        class Base:
            def make_move(self, gamestate):
                return "R"

        class Bot(Base):
            def make_move(self, gamestate):
                return "P"
    """, "helper_base.py")
    assert loader.load(str(bot)).entries["dynamite"].name == "Bot"


def test_abstract_helper_named_bot_is_never_played(write_bot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A folder whose helper module is called bot.py (the abstract base of the bots in its other
    files): loading bot.py, as the arena does for the folder, says it is an abstract helper and
    how to name the bot, instead of instantiating the base; the bot file plays."""
    from arena_sdk import loader

    helper = write_bot("""
        from abc import ABC, abstractmethod

        class BaseBot(ABC):
            @abstractmethod
            def make_move(self, gamestate):
                ...
    """, "bot.py")
    mine = write_bot("""
        from bot import BaseBot

        class Rocky(BaseBot):
            def make_move(self, gamestate):
                return "R"
    """, "mybot.py")
    for spec in (str(helper), f"{helper}:BaseBot"):
        with pytest.raises(loader.LoadError, match=r"BaseBot is abstract .*make_move.*\"run\": \"mybot.py:MyBot\""):
            loader.load(spec)
    # A bot process loads one bot; this test process has loaded others, and another test's
    # module named "bot" must not stand in for this folder's helper.
    monkeypatch.delitem(sys.modules, "bot", raising=False)
    assert loader.load(str(mine)).entries["dynamite"].name == "Rocky"
