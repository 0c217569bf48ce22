"""Seed compatibility (arena_sdk.compat): bot files written for the original contests."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from arena_sdk import auction, bidding, dynamite, finger, loader, realtv
from arena_sdk._common import InvalidAnswer, Outcome, Result
from arena_sdk.compat import _shimpath, style_of

from conftest import SRC, with_src

BOTS = Path(__file__).resolve().parent / "compat_bots"
SHIM_NAMES = [m for ms in _shimpath.MODULES.values() for m in ms]


@pytest.fixture(autouse=True)
def isolated_imports() -> Iterator[None]:
    """Loading a seed-style file puts a shim directory on sys.path and imports the file and its
    helpers: undo that after every test so that tests do not see each other's shims."""
    path, modules = list(sys.path), set(sys.modules)
    yield
    sys.path[:] = path
    for name in set(sys.modules) - modules:
        if not name.startswith("arena_sdk"):  # the SDK's own modules stay, as in a bot process
            del sys.modules[name]


def info(game: str, **kw: Any) -> dict[str, Any]:
    return dict(match_id="m", seat=0, players=("me", "them"), deadline=1.0, clock=0.0, **kw)


def tick(state: Any) -> Any:
    state.deadline = time.monotonic() + 2.0
    return state


# -- keeping the shims private -------------------------------------------------------------------


def run_py(code: str, cwd: Path, extra_path: str = "") -> subprocess.CompletedProcess[str]:
    import os

    env = with_src(dict(os.environ))
    if extra_path:
        env["PYTHONPATH"] = env["PYTHONPATH"] + os.pathsep + extra_path
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=60)


def test_shims_are_not_importable_outside_a_bot_process(tmp_path: Path) -> None:
    r = run_py(f"""
        import sys, importlib.util
        import arena_sdk, arena_sdk.compat, arena_sdk.loader
        for name in {SHIM_NAMES!r}:
            assert importlib.util.find_spec(name) is None, name
        assert not any("_shims" in p for p in sys.path), sys.path
        print("ok")
    """, tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_real_packages_of_the_same_names_are_not_shadowed(tmp_path: Path) -> None:
    real = tmp_path / "site"
    (real / "Game").mkdir(parents=True)
    (real / "Game" / "__init__.py").write_text("REAL = 'game'\n")
    (real / "bidbot").mkdir()
    (real / "bidbot" / "__init__.py").write_text("REAL = 'bidbot'\n")
    for name in ("client", "moves", "generic_player", "game", "test_player"):
        (real / f"{name}.py").write_text(f"REAL = {name!r}\n")
    r = run_py("""
        import arena_sdk.compat, arena_sdk.loader
        from arena_sdk.compat import style_of
        import Game, bidbot, client, moves, generic_player, game, test_player
        assert [m.REAL for m in (Game, bidbot, client, moves, generic_player, game, test_player)] == [
            'game', 'bidbot', 'client', 'moves', 'generic_player', 'game', 'test_player']
        print("ok")
    """, tmp_path, str(real))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_only_the_detected_styles_shims_are_added() -> None:
    loader.load(str(BOTS / "dynamite" / "function_bot.py"))
    assert not any(p.startswith(_shimpath.SHIM_ROOT) for p in sys.path)
    loader.load(str(BOTS / "finger" / "custom_player.py"))
    shims = [p for p in sys.path if p.startswith(_shimpath.SHIM_ROOT)]
    assert shims == [_shimpath.directory("finger")]
    with pytest.raises(ImportError):
        __import__("bidbot")


def test_shims_win_over_original_contest_files_next_to_the_bot(tmp_path: Path) -> None:
    (tmp_path / "generic_player.py").write_text("raise SystemExit('the original engine module was imported')\n")
    (tmp_path / "moves.py").write_text("raise SystemExit('the original engine module was imported')\n")
    bot = tmp_path / "custom_player.py"
    bot.write_text((BOTS / "finger" / "inputter" / "custom_player.py").read_text())
    b = loader.load(str(bot))
    assert b.entries["finger"].name == "BLUEBUFFEDv3"


# -- detection --------------------------------------------------------------------------------


@pytest.mark.parametrize("rel,game,name", [
    ("dynamite/function_bot.py", "dynamite", "function_bot"),
    ("dynamite/class_bot.py", "dynamite", "DynamiteBot"),
    ("dynamite/two_classes.py:Paper", "dynamite", "Paper"),
    ("finger/custom_player.py", "finger", "black"),
    ("bidding/checking_bot.py", "bidding", "CheckingBot"),
    ("auction/sample_client.py", "auction", "sample_client"),
    ("realtv/LikesThemStrong.py", "realtv", "LikesThemStrong"),
    ("realtv/Schemer.py", "realtv", "Schemer"),
])
def test_detects_each_seed_style(rel: str, game: str, name: str) -> None:
    b = loader.load(str(BOTS / rel))
    assert list(b.entries) == [game]
    e = b.entries[game]
    assert e.name == name and e.style == f"seed-{game}"


def test_style_of_ignores_native_files_and_comments() -> None:
    assert style_of("from arena_sdk import dynamite\nimport client\n") is None
    assert style_of("# import client\nx = 1\n") is None
    assert style_of("from Game import *\n") == "realtv"
    assert style_of("from bidbot.BidBot import BidBot\n") == "bidding"
    assert style_of("from moves import Move\n") == "finger"
    assert style_of("from client import Client\n") == "auction"


def test_two_seed_classes_need_a_name() -> None:
    with pytest.raises(loader.LoadError, match=r"several dynamite bots \(Paper, Rock\).*two_classes.py:Paper"):
        loader.load(str(BOTS / "dynamite" / "two_classes.py"))


def test_error_lists_seed_apis(write_bot) -> None:  # type: ignore[no-untyped-def]
    bot = write_bot("x = 1\n", "nothing_here.py")
    with pytest.raises(loader.LoadError) as e:
        loader.load(str(bot))
    msg = str(e.value)
    for api in ("make_move(rounds)", "CustomPlayer(GenericPlayer)", "bidbot.BotClient.connect",
                "from client import Client", "voteForElimination(context)", "arena_sdk.dynamite.Bot"):
        assert api in msg, msg


def test_auction_script_with_syntax_error_fails_to_load(write_bot) -> None:  # type: ignore[no-untyped-def]
    bot = write_bot("from client import Client\nif True\n", "broken_client.py")
    with pytest.raises(loader.LoadError, match="not valid Python"):
        loader.load(str(bot))


# -- dynamite ------------------------------------------------------------------------------------


def dyn_state() -> dynamite.State:
    st = dynamite.State(dynamite.Setup(**info("dynamite"), target_score=1000, max_rounds=2500, dynamite_per_player=100))
    st.rounds.extend([dynamite.Round("R", "D"), dynamite.Round("D", "D"), dynamite.Round("W", "S")])
    return tick(st)


def test_dynamite_function_and_class_bots_get_the_seed_shapes() -> None:
    fb = loader.load(str(BOTS / "dynamite" / "function_bot.py")).entries["dynamite"].make()
    assert fb.move(dyn_state()) == "D"  # 3 rounds played: its every-third-round dynamite
    cb = loader.load(str(BOTS / "dynamite" / "class_bot.py")).entries["dynamite"].make()
    cb.inner.calls = 3
    assert cb.move(dyn_state()) == "D"
    got: list[Any] = []

    class Spy:
        def make_move(self, gamestate: Any) -> str:
            got.append(gamestate)
            return "R"

    from arena_sdk.compat.dynamite import ClassBot, FunctionBot

    ClassBot(Spy()).move(dyn_state())
    FunctionBot(lambda rounds: got.append(rounds) or "P").move(dyn_state())
    want = [{"p1": "R", "p2": "D"}, {"p1": "D", "p2": "D"}, {"p1": "W", "p2": "S"}]
    assert got == [{"rounds": want}, want]


# -- finger --------------------------------------------------------------------------------------


def finger_state(**kw: Any) -> finger.State:
    st = finger.State(finger.Setup(**info("finger"), games=10, max_rounds=5000, own_name="me", opponent_name="them"))
    for k, v in kw.items():
        setattr(st, k, v)
    return tick(st)


def test_finger_shim_modules_and_getters() -> None:
    b = loader.load(str(BOTS / "finger" / "custom_player.py"))
    import game
    import generic_player
    import moves
    import test_player

    assert [m.value for m in moves.Move] == ["LEFT TO RIGHT", "LEFT TO LEFT", "RIGHT TO RIGHT", "RIGHT TO LEFT"]
    assert moves.Move.SWITCH(3, 4) == (3, 4) and type(moves.Move.SWITCH(3, 4)) is tuple
    assert isinstance(test_player.test_player, generic_player.GenericPlayer)
    assert game.Game(test_player.test_player).players == [test_player.test_player]

    seat = b.entries["finger"].make()
    assert seat.player.name == "black"  # the module-level instance's name
    H = finger.HistoryEntry
    st = finger_state(game=2, round=3, own_left=2, own_right=3, opponent_left=4, opponent_right=0,
                      starting_player="them", started=False,
                      history=[H("them", finger.Hit.LEFT_TO_LEFT, False), H("me", finger.Switch(2, 3), True)])
    move = seat.move(st)
    p = seat.player
    assert (p.get_my_left(), p.get_my_right(), p.get_opponent_left(), p.get_opponent_right()) == (2, 3, 4, 0)
    assert p.get_current_round() == 2 and p.get_starting_player() == "them"
    assert p.get_history() == [("them", moves.Move.LEFT_TO_LEFT), ("black", (2, 3))]
    assert move in (finger.Hit.LEFT_TO_LEFT, finger.Hit.RIGHT_TO_LEFT)  # 2+4 / 3+4 take the hand
    # A new game: history and round start again; the starting player is this bot by its own name.
    st2 = finger_state(game=3, round=1, starting_player="me", started=True, history=[])
    seat.move(st2)
    assert p.get_history() == [] and p.get_current_round() == 0 and p.get_starting_player() == "black"


def test_finger_answers_convert_and_garbage_is_invalid() -> None:
    loader.load(str(BOTS / "finger" / "custom_player.py"))
    import moves

    from arena_sdk.compat.finger import to_native

    assert to_native(moves.Move.RIGHT_TO_LEFT) is finger.Hit.RIGHT_TO_LEFT
    assert to_native(moves.Move.SWITCH(1, 3)) == finger.Switch(1, 3)
    assert to_native([0, 2]) == finger.Switch(0, 2)
    for bad in (None, "punch", (1, 2, 3), 7):
        with pytest.raises(InvalidAnswer):
            to_native(bad)


def test_finger_input_raises_eof_instead_of_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the runner points stdin at /dev/null
    seat = loader.load(str(BOTS / "finger" / "inputter" / "custom_player.py")).entries["finger"].make()
    with pytest.raises(EOFError):
        seat.move(finger_state(game=1, round=3))


# -- bidding -------------------------------------------------------------------------------------


def bid_state(**kw: Any) -> bidding.State:
    st = bidding.State(bidding.Setup(**info("bidding"), games=3, start_money=100, max_rounds=10, own_name="me",
                                     opponent_name="them"))
    st.game, st.round, st.side = 1, 1, bidding.Side.A
    for k, v in kw.items():
        setattr(st, k, v)
    return tick(st)


def test_bidding_main_connects_and_connect_blocks_until_the_end() -> None:
    b = loader.load(str(BOTS / "bidding" / "checking_bot.py"))
    seat = b.entries["bidding"].make()
    seat.start(bid_state().setup)
    inner = seat.inner
    assert type(inner).__name__ == "CheckingBot" and inner.username == "checker"
    assert seat._thread.is_alive()  # main() is blocked in connect()
    assert seat.bid(bid_state()) == 20  # 100 // 5 places
    gs = seat.gs
    assert (gs.start_money, gs.opponent_money, gs.my_money, gs.player_identifier) == (100, 100, 100, 0)
    assert gs.is_player_a() and gs.get_opponent_name() == gs.get_opponent_username() == "them"
    st = bid_state(round=3, side=bidding.Side.B, own_money=80, opponent_money=75, own_bids=[20, 30],
                   opponent_bids=[25, 20], rounds_won=1, rounds_lost=1, bottle_position=5)
    seat.bid(st)
    assert (gs.player_identifier, gs.my_bids, gs.opponents_bids, gs.rounds_won, gs.rounds_lost) == (1, [20, 30], [25, 20], 1, 1)
    assert not gs.is_player_a() and gs.self is gs
    seat.end(Outcome(Result.WIN, 1.0, st))
    assert not seat._thread.is_alive()  # connect() returned and main() ended


def test_bidding_game_state_constants() -> None:
    loader.load(str(BOTS / "bidding" / "checking_bot.py"))
    from bidbot.GameState import GameState

    assert (GameState.PLAYER_A, GameState.PLAYER_B, GameState.UNKNOWN) == (0, 1, 3)


def test_bidding_checks_raise_when_fields_are_missing() -> None:
    seat = loader.load(str(BOTS / "bidding" / "checking_bot.py")).entries["bidding"].make()
    seat.start(bid_state().setup)
    st = bid_state(start_money=0)
    with pytest.raises(AssertionError, match="start_money not filled"):
        seat.bid(st)
    seat.end(Outcome(Result.LOSS, 0.0, st))


def test_bidding_rejected_bid_calls_the_hook(write_bot) -> None:  # type: ignore[no-untyped-def]
    bot = write_bot("""
        from bidbot.BidBot import BidBot
        from bidbot.BotClient import connect

        class Greedy(BidBot):
            rejected = []
            def get_bid(self, game_state):
                return game_state.my_money + 1
            def bid_rejected(self, game_state, bid):
                Greedy.rejected.append(bid)
    """, "greedy.py")
    b = loader.load(f"{bot}")
    seat = b.entries["bidding"].make()
    seat.start(bid_state().setup)  # no main(): built as Greedy(own_name)
    assert seat.inner.username == "me"
    assert seat.bid(bid_state()) == 101
    assert seat.inner.rejected == [101]


def test_bidding_main_that_raises_fails_the_seat(write_bot) -> None:  # type: ignore[no-untyped-def]
    bot = write_bot("""
        from bidbot.BidBot import BidBot
        from bidbot.BotClient import connect

        class B(BidBot):
            def get_bid(self, game_state):
                return 1

        def main():
            raise OSError("no config file")
    """, "bad_main.py")
    seat = loader.load(str(bot)).entries["bidding"].make()
    with pytest.raises(OSError, match="no config file"):
        seat.start(bid_state().setup)


def test_bidbot_connect_outside_a_seat_says_why() -> None:
    loader.load(str(BOTS / "bidding" / "checking_bot.py"))
    from bidbot.BotClient import connect

    with pytest.raises(RuntimeError, match="no arena seat"):
        connect("h", 1, "u", object())


# -- auction -------------------------------------------------------------------------------------


def auction_setup() -> auction.Setup:
    return auction.Setup(**info("auction"), artists_num=2, required_count=2, auction_items=("t0", "t1", "t0", "t1"),
                         player_count=2, player_names=("me", "them"), own_name="me", start_money=100)


def test_auction_script_runs_as_main_and_exits_at_the_end() -> None:
    b = loader.load(str(BOTS / "auction" / "sample_client.py"))
    assert b.module is None  # a script: taken over, never imported
    seat = b.entries["auction"].make()
    setup = auction_setup()
    seat.start(setup)
    st = tick(auction.State(setup))
    assert seat.bid(st) == 5  # first item, none owned
    st.item_index, st.item, st.bid_item, st.bid_winner, st.winning_bid = 1, "t1", "t0", "me", 5
    st.wealth_table, st.remain_time = {"me": 95, "them": 100}, {"me": 119.0, "them": 119.5}
    tick(st)
    assert seat.bid(st) == 5  # t1: none owned
    st.finished, st.bid_item, st.bid_winner, st.winning_bid = True, "t1", None, -1
    seat.end(Outcome(Result.DRAW, 0.0, st))
    assert not seat._thread.is_alive()  # exit(0) ended the script's thread, not the process
    assert sys.argv[0] != str(BOTS / "auction" / "sample_client.py")  # argv restored


def test_auction_script_failure_is_raised_on_its_next_bid() -> None:
    seat = loader.load(str(BOTS / "auction" / "raiser_client.py")).entries["auction"].make()
    setup = auction_setup()
    seat.start(setup)
    st = tick(auction.State(setup))
    for i in range(3):
        st.item_index, st.bid_item = i, "t0" if i else ""
        assert seat.bid(tick(st)) == 1
    with pytest.raises(KeyError, match="auction script failure"):
        seat.bid(tick(st))


def test_auction_script_ending_early_is_a_fault(write_bot) -> None:  # type: ignore[no-untyped-def]
    bot = write_bot("""
        from client import Client
        import sys
        c = Client("quitter", (sys.argv[1], int(sys.argv[2])))
        assert c.wealth_table == {"me": 100, "them": 100, "quitter": 100}, c.wealth_table
        exit(0)
    """, "quitter.py")
    from arena_sdk.compat.auction import ScriptEnded

    seat = loader.load(str(bot)).entries["auction"].make()
    setup = auction_setup()
    seat.start(setup)
    with pytest.raises(ScriptEnded):
        seat.bid(tick(auction.State(setup)))


# -- realtv --------------------------------------------------------------------------------------


def rtv_setup(strength: int, pid: str) -> realtv.Setup:
    return realtv.Setup(**info("realtv"), id=pid, name="Schemer", strength=strength, phases=3,
                        players_per_island=12, instance=strength)


def test_realtv_instances_contexts_and_votes() -> None:
    b = loader.load(str(BOTS / "realtv" / "Schemer.py"))
    from Game import Const, Player

    assert (Const.PLAYERS_PER_ISLAND, Const.PHASES_PER_GAME, Const.SCORE_FOR_TRIAL, Const.SCORE_FOR_LASTMAN,
            Const.SCORE_FOR_EACH_TRAITOR, Const.SCORE_FOR_ALL_TRAITORS, Const.INSTANCES_PER_PLAYER,
            Const.DIFFICULTY_A, Const.DIFFICULTY_B) == (12, 100, 3, 100, 0, 100, 11, 7, -3)
    p = Player("STR=4", 4)
    import re

    assert re.fullmatch(r"[A-Z0-9]{10}", p.id) and p.name == "Player" and p.score == 0 and p.strength == 4
    seats = []
    for s in range(11):
        seat = b.entries["realtv"].make()
        seat.start(rtv_setup(s, f"ID{s:08d}"))
        seats.append(seat)
    cls = type(seats[0].inner)
    assert len(cls.instances) == 11 and seats[3].inner.id == "ID00000003"  # shared class state, arena ids

    PC, V = realtv.PlayerContext, realtv.Votes
    ctx = realtv.Context(rtv_setup(5, "ID00000005"))
    ctx.decision, ctx.island_index, ctx.game = realtv.Decision.ELIMINATION, 2, realtv.GameContext(4, 22, 1)
    ctx.active_players = {"ID00000005": PC("ID00000005", "Schemer", 5, 12.0, [V("ID00000002", "")]),
                          "ID00000002": PC("ID00000002", "Schemer", 2, 9.0, []),
                          "FILLER0001": PC("FILLER0001", "BotPareto", 1, 0.0, [])}
    ctx.eliminated_players = {"GONE000001": PC("GONE000001", "BotPareto", 0, 0.0, [])}
    ctx.own_score = 15.0
    tick(ctx)
    vote = seats[5].vote_for_elimination(ctx)
    assert vote.id == "FILLER0001" and realtv.to_vote_id(vote) == "FILLER0001"
    assert seats[5].inner.score == 15.0
    seed_ctx = seats[5]._context(ctx)
    me = seed_ctx.activePlayers["ID00000005"]
    assert me.previousMoves == [(seed_ctx.activePlayers["ID00000002"], None)]
    assert (seed_ctx.islandIndex, seed_ctx.game.totalBots, seed_ctx.game.totalHumans, seed_ctx.game.phaseIndex) == (2, 4, 22, 1)
    assert list(seed_ctx.eliminatedPlayers) == ["GONE000001"] and seed_ctx.currentTies == {}
    # A vote may be one of the script's own Player instances: its .id (the arena's) counts.
    del ctx.active_players["FILLER0001"]
    vote = seats[5].vote_for_elimination(ctx)
    assert vote is seats[2].inner and realtv.to_vote_id(vote) == "ID00000002"
    ctx.decision, ctx.current_ties = realtv.Decision.TIE, dict(ctx.active_players)
    assert seats[5].vote_for_tie(ctx).id == "ID00000002"
