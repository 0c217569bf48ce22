"""Finding the bots in a bot file."""

from __future__ import annotations

from types import ModuleType
from typing import Sequence

import pytest

from arena_sdk import dynamite, loader
from arena_sdk.games import SIGNATURES


def test_picks_the_class_defined_in_the_file_not_an_imported_one(write_bot) -> None:
    write_bot("""
        from arena_sdk import dynamite

        class Base(dynamite.Bot):
            def move(self, state):
                return "R"
    """, "shared_base.py")
    bot = write_bot("""
        from arena_sdk import dynamite, finger
        from shared_base import Base   # a helper module next to the bot file

        class Helper(dynamite.Bot):     # subclassed below: a helper base, not the bot
            pass

        class Aardvark(Helper):
            def move(self, state):
                return "W"

        class Fingers(finger.Bot):
            def move(self, state):
                return finger.Move.LEFT_TO_LEFT
    """, "picks_bot.py")
    b = loader.load(str(bot))
    assert sorted(b.entries) == ["dynamite", "finger"]
    assert b.entries["dynamite"].make.__name__ == "Aardvark"
    assert b.entries["finger"].make.__name__ == "Fingers"
    assert b.name == "picks_bot"  # several games: named after the file


def test_explicit_class_name(write_bot) -> None:
    bot = write_bot("""
        from arena_sdk import dynamite

        class One(dynamite.Bot):
            def move(self, state):
                return "R"

        class Two(dynamite.Bot):
            def move(self, state):
                return "P"
    """, "two_bots.py")
    with pytest.raises(loader.LoadError, match=r"several dynamite bots \(One, Two\).*two_bots.py:One"):
        loader.load(str(bot))
    b = loader.load(f"{bot}:Two")
    assert b.entries["dynamite"].make.__name__ == "Two" and b.name == "Two"
    with pytest.raises(loader.LoadError, match="has no class Three; its classes: One, Two"):
        loader.load(f"{bot}:Three")


def test_nothing_found_lists_the_apis_looked_for(write_bot) -> None:
    bot = write_bot("def strategy(history):\n    return 'R'\n", "plain_bot.py")
    with pytest.raises(loader.LoadError) as e:
        loader.load(str(bot))
    text = str(e.value)
    assert "plain_bot.py defines no arena bot" in text
    for game in SIGNATURES:  # every game (TestEveryGame checks the table against the registry)
        assert f"arena_sdk.{game}.Bot" in text


def test_missing_file() -> None:
    with pytest.raises(loader.LoadError, match="not found"):
        loader.load("/nonexistent/bot.py")


class SeedFunctionDetector(loader.Detector):
    """What a seed shim looks like: a module-level make_move(rounds) becomes a dynamite bot."""

    looks_for = "  - a module-level make_move(rounds) (test detector)"

    def detect(self, bot: loader.BotFile, module: ModuleType) -> Sequence[loader.Entry]:
        fn = getattr(module, "make_move", None)
        if not callable(fn):
            return ()

        class Adapter(dynamite.Bot):
            def move(self, state: dynamite.State) -> str:
                return fn(state.as_seed_rounds())

        return [loader.Entry(game="dynamite", name=bot.path.stem, make=Adapter, style="seed function")]


def test_detectors_plug_in_after_the_native_one(write_bot, monkeypatch) -> None:
    monkeypatch.setattr(loader, "DETECTORS", [loader.NativeDetector()])
    loader.register_detector(SeedFunctionDetector())
    b = loader.load(str(write_bot("def make_move(rounds):\n    return 'W' if rounds else 'D'\n", "seed_fn.py")))
    e = b.entries["dynamite"]
    assert e.style == "seed function" and e.name == "seed_fn"
    with pytest.raises(loader.LoadError) as err:
        loader.load(str(write_bot("x = 1\n", "empty_bot.py")))
    assert "make_move(rounds) (test detector)" in str(err.value)


def test_prepare_can_install_shims_before_import(write_bot, monkeypatch) -> None:
    class ShimDetector(loader.Detector):
        def prepare(self, bot: loader.BotFile) -> None:
            shim = ModuleType("generic_player_test_shim")
            shim.VALUE = "R"  # type: ignore[attr-defined]
            monkeypatch.setitem(__import__("sys").modules, "generic_player_test_shim", shim)
            return None

    monkeypatch.setattr(loader, "DETECTORS", [ShimDetector(), *loader.DETECTORS])
    b = loader.load(str(write_bot("""
        from generic_player_test_shim import VALUE
        from arena_sdk import dynamite

        class UsesShim(dynamite.Bot):
            def move(self, state):
                return VALUE
    """, "uses_shim.py")))
    assert b.entries["dynamite"].make().move(None) == "R"


def test_detector_modules_are_imported_before_loading(write_bot, monkeypatch, tmp_path) -> None:
    pkg = tmp_path / "my_shims"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from arena_sdk import loader\n"
        "from test_loader import SeedFunctionDetector\n"
        "loader.register_detector(SeedFunctionDetector())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(loader, "DETECTORS", [loader.NativeDetector()])
    monkeypatch.setattr(loader, "DETECTOR_MODULES", ["my_shims", "no_such_shim_module"])
    b = loader.load(str(write_bot("def make_move(rounds):\n    return 'R'\n", "seed_fn2.py")))
    assert b.entries["dynamite"].style == "seed function"
