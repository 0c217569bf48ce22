"""Finding the bots in a bot file.

``python3 -m arena_sdk path/to/bot.py[:ClassName]`` loads the file through :func:`load`. The
file's folder goes first on ``sys.path`` (so helper modules next to it import), the file is
imported as a module, and every detector in :data:`DETECTORS` is asked, in order, which bots it
defines. The first detector that finds any wins.

A detector turns some style of bot file into :class:`Entry` objects: a game name and a factory
that makes a fresh player per seat. A player is any object with the methods of that game's
native ``Bot`` class (``arena_sdk.dynamite.Bot`` and so on): ``move``/``bid``/``vote_*``, and
optionally ``start(setup)`` and ``end(outcome)``. The native detector finds subclasses of those
classes; the seed-compatibility shims add their own detectors (for example one that wraps a
module-level ``make_move(rounds)`` in a ``dynamite.Bot``) with :func:`register_detector`, from a
module listed in :data:`DETECTOR_MODULES` (``arena_sdk.compat``), which :func:`load` imports
before looking at the file.

A detector may also install shim modules before the file is imported (:meth:`Detector.prepare`)
or take over the file completely without importing it, by returning its entries from there.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from arena_sdk import _wire, games

__all__ = ["BotFile", "Entry", "Detector", "NativeDetector", "DETECTORS", "DETECTOR_MODULES", "register_detector",
           "load", "LoadedBot", "LoadError"]


class LoadError(Exception):
    """The bot file cannot be loaded or defines no bot; the message says what to do."""


@dataclass
class BotFile:
    """The bot file being loaded."""

    #: Absolute path of the file.
    path: Path
    #: The class named after ``:`` on the command line, if any.
    class_name: str | None
    #: Name under which the file is imported (its stem, unless that is taken).
    module_name: str
    #: The file's text (detectors may look at it before it runs).
    source: str

    @property
    def directory(self) -> Path:
        return self.path.parent


@dataclass(frozen=True)
class Entry:
    """One bot of one game found in a bot file."""

    #: Game registry name ("dynamite", "finger", "bidding", "auction", "realtv").
    game: str
    #: Display name (usually the class name).
    name: str
    #: Makes a fresh player for one seat (a new instance per match or realtv instance).
    make: Callable[[], Any]
    author: str = ""
    version: str = ""
    #: Which detector found it, for messages.
    style: str = "native"
    #: The seat class that plays it; None for the game module's own (games.seat_class).
    seat: type | None = None


@dataclass
class LoadedBot:
    """What the runner serves: the file and its bots, at most one per game."""

    file: BotFile
    entries: dict[str, Entry] = field(default_factory=dict)
    module: ModuleType | None = None

    @property
    def name(self) -> str:
        if len(self.entries) == 1:
            (entry,) = self.entries.values()
            return entry.name
        return self.file.path.stem

    @property
    def author(self) -> str:
        return next((e.author for e in self.entries.values() if e.author), "")

    @property
    def version(self) -> str:
        return next((e.version for e in self.entries.values() if e.version), "")


class Detector:
    """Finds bots of one style in a bot file. Subclass and register with register_detector."""

    #: Human description of the API this detector looks for; listed when no bot is found.
    looks_for: str = ""

    def prepare(self, bot: BotFile) -> Sequence[Entry] | None:
        """Runs before the file is imported, e.g. to install shim modules in sys.modules.

        Return entries to take the file over without importing it; None to go on.
        """
        return None

    def detect(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        """Returns the bots this detector finds in the imported module (may be empty)."""
        return ()


def _defined_here(obj: object, module: ModuleType) -> bool:
    return isinstance(obj, type) and getattr(obj, "__module__", None) == module.__name__


class NativeDetector(Detector):
    """Classes that subclass a game's ``arena_sdk.<game>.Bot``, defined in the bot's own file."""

    looks_for = "\n".join(
        f"  - a class subclassing arena_sdk.{g}.Bot that implements {sig}"
        for g, sig in games.SIGNATURES.items()
    )

    def detect(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        bases = games.imported_bot_bases()
        found: list[Entry] = []
        if bot.class_name is not None:
            cls = getattr(module, bot.class_name, None)
            if not isinstance(cls, type):
                return ()
            for game, base in bases.items():
                if issubclass(cls, base) and cls is not base:
                    check_concrete(bot.path.name, game, cls)
                    found.append(_entry(game, cls))
            return found
        for game, base in bases.items():
            own = [obj for name, obj in vars(module).items()
                   if not name.startswith("_") and _defined_here(obj, module)
                   and issubclass(obj, base) and obj is not base]
            candidates = [c for c in own if not inspect.isabstract(c)]
            if own and not candidates:
                raise abstract_bot(bot.path.name, game, own)
            # A class that another candidate subclasses is a helper base, not the bot.
            leaves = [c for c in candidates if not any(o is not c and issubclass(o, c) for o in candidates)]
            if len(leaves) > 1:
                raise several_bots(bot.path.name, game, candidates)
            found.extend(_entry(game, c) for c in leaves)
        return found


def abstract_bot(file: str, game: str, classes: Sequence[type]) -> LoadError:
    """The error for a file whose only bot classes of a game are abstract: helper bases (a
    folder's bot.py that only holds the base of the bots in its other files, say), which the
    arena must not instantiate."""
    names = ", ".join(sorted(c.__name__ for c in classes))
    missing = sorted({m for c in classes for m in getattr(c, "__abstractmethods__", ())})
    return LoadError(
        f"{file}'s {game} bot class {names} is abstract (it does not implement {', '.join(missing)}), "
        f"so it cannot play: it is a helper base. Give the file of the bot that subclasses it, "
        f"or name that file and class in bot.json (\"run\": \"mybot.py:MyBot\")")


def check_concrete(file: str, game: str, cls: type) -> None:
    """Refuses a class named on the command line (file.py:Class) that is abstract."""
    if inspect.isabstract(cls):
        raise abstract_bot(file, game, [cls])


def several_bots(file: str, game: str, candidates: Sequence[type]) -> LoadError:
    """The error for a file with more than one bot class of a game: it names every candidate,
    base classes that other candidates subclass included (such a base may be the one that plays),
    and how to pick each."""
    names = sorted({c.__name__ for c in candidates})
    picks = ", ".join(f"{file}:{n}" for n in names)
    return LoadError(f"{file} defines several {game} bots ({', '.join(names)}); name the one to play: {picks}")


def _entry(game: str, cls: type) -> Entry:
    return Entry(game=game, name=getattr(cls, "name", "") or cls.__name__, make=cls,
                 author=getattr(cls, "author", "") or "", version=getattr(cls, "version", "") or "")


#: Detectors asked in order; the first that finds any bot wins. The seed-compatibility shims
#: (issue 4) register theirs after the native one.
DETECTORS: list[Detector] = [NativeDetector()]


#: Modules that register more detectors when imported; load() imports those that exist. The
#: seed-compatibility shims live in arena_sdk.compat and register theirs from its __init__.
DETECTOR_MODULES: list[str] = ["arena_sdk.compat"]
_imported_detector_modules: set[str] = set()


def _import_detector_modules() -> None:
    for name in DETECTOR_MODULES:
        if name in _imported_detector_modules:
            continue
        _imported_detector_modules.add(name)
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)


def register_detector(detector: Detector, *, first: bool = False) -> None:
    """Adds a detector (after the existing ones unless first=True)."""
    if first:
        DETECTORS.insert(0, detector)
    else:
        DETECTORS.append(detector)


def parse_spec(spec: str) -> tuple[Path, str | None]:
    """Splits ``path/to/bot.py[:ClassName]``."""
    path, sep, cls = spec.rpartition(":")
    if sep and path.endswith(".py") and cls.isidentifier():
        return Path(path), cls
    return Path(spec), None


def _module_name(path: Path) -> str:
    stem = path.stem
    if stem.isidentifier() and stem not in sys.modules and stem != "arena_sdk":
        return stem
    return "__arena_bot__"


def load(spec: str) -> LoadedBot:
    """Imports the bot file named by spec and finds its bots. Raises LoadError."""
    raw_path, class_name = parse_spec(spec)
    path = raw_path.resolve()
    if not path.is_file():
        raise LoadError(f"bot file {raw_path} not found (cwd {os.getcwd()})")
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise LoadError(f"cannot read bot file {raw_path}: {e}") from e
    bot = BotFile(path=path, class_name=class_name, module_name=_module_name(path), source=source)
    # Helper modules next to the bot file must import.
    directory = str(bot.directory)
    if directory not in sys.path:
        sys.path.insert(0, directory)

    loaded = LoadedBot(file=bot)
    _import_detector_modules()
    for d in DETECTORS:
        claimed = d.prepare(bot)
        if claimed:
            _add(loaded, claimed)
            return loaded

    spec_ = importlib.util.spec_from_file_location(bot.module_name, path)
    if spec_ is None or spec_.loader is None:
        raise LoadError(f"cannot import {raw_path} as a Python module")
    module = importlib.util.module_from_spec(spec_)
    sys.modules[bot.module_name] = module
    try:
        spec_.loader.exec_module(module)  # user code runs here; its exceptions propagate
    except ModuleNotFoundError as e:
        if hasattr(e, "add_note"):
            e.add_note(
                f"arena: a bot sees only its own files; a file entered in a tournament is alone "
                f"(arena play also shows the .py files beside it). If {e.name!r} is a module of "
                "yours, put it beside bot.py in a folder and give the folder; if it is a package, "
                "list it in requirements.txt in that folder."
            )
        raise
    loaded.module = module

    if class_name is not None and not isinstance(getattr(module, class_name, None), type):
        classes = sorted(n for n, o in vars(module).items() if _defined_here(o, module))
        raise LoadError(f"{path.name} has no class {class_name}"
                        + (f"; its classes: {', '.join(classes)}" if classes else ""))
    for d in DETECTORS:
        found = d.detect(bot, module)
        if found:
            _add(loaded, found)
            return loaded
    looked = "\n".join(d.looks_for for d in DETECTORS if d.looks_for)
    what = f"class {class_name} in {path.name} is not" if class_name else f"{path.name} defines no"
    raise LoadError(f"{what} arena bot. The Python SDK looked for:\n{looked}\n"
                    f"See sdk/python/README.md for a minimal bot of each game.")


def _add(loaded: LoadedBot, entries: Sequence[Entry]) -> None:
    for e in entries:
        if e.game not in _wire.GAMES:
            raise LoadError(f"unknown game {e.game!r} for bot {e.name}")
        if e.game in loaded.entries and loaded.entries[e.game].make is not e.make:
            raise LoadError(f"{loaded.file.path.name} defines two {e.game} bots "
                            f"({loaded.entries[e.game].name}, {e.name}); name one as "
                            f"{loaded.file.path.name}:{e.name}")
        loaded.entries[e.game] = e
