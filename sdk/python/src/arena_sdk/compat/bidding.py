"""Bidding bots as the ``bidbot`` client library had them: a ``BidBot`` subclass with
``get_bid(game_state)`` (and optionally ``bid_rejected(game_state, bid)``), handed to
``bidbot.BotClient.connect(host, port, username, bot)`` by the file's ``main()``.

Each seat runs the file's ``main()`` in a thread of its own (host and port are ignored); the
``connect`` call hands the bot over to the seat and blocks until the seat's games end, as it
blocked until the server's games ended. A file without ``main()`` gets ``Cls(own_name)``.
"""

from __future__ import annotations

import sys
import threading
from types import ModuleType
from typing import Any

from arena_sdk import bidding

#: How long main() may take to reach connect().
CONNECT_TIMEOUT = 10.0

_local = threading.local()
# sys.argv is process-wide: while one main() starts, it reads [file] as if run as a script.
_argv_lock = threading.Lock()


class _Handoff:
    def __init__(self) -> None:
        self.bot: Any = None
        self.username = ""
        self.error: BaseException | None = None
        self.ready = threading.Event()
        self.done = threading.Event()


def connect(host: Any, port: Any, username: Any, bot: Any) -> None:
    h: _Handoff | None = getattr(_local, "handoff", None)
    if h is None:
        raise RuntimeError("bidbot.BotClient.connect: no arena seat is waiting for a bot in this thread "
                           "(in the arena, connect() must be called from the bot file's main())")
    if h.bot is not None:
        raise RuntimeError("bidbot.BotClient.connect called twice for one seat")
    h.bot, h.username = bot, str(username)
    h.ready.set()
    h.done.wait()


def _own_function(module: ModuleType, name: str) -> Any:
    fn = vars(module).get(name)
    if callable(fn) and not isinstance(fn, type) and getattr(fn, "__module__", None) == module.__name__:
        return fn
    return None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class BidBotAdapter(bidding.Bot):
    """One seat: a BidBot obtained from the file's main() (or built directly)."""

    def __init__(self, module: ModuleType, cls: type | None, use_main: bool = True) -> None:
        self._module = module
        self._cls = cls
        self._use_main = use_main
        self.inner: Any = None
        self._handoff: _Handoff | None = None
        self._thread: threading.Thread | None = None
        self.gs: Any = None

    def start(self, setup: bidding.Setup) -> None:
        from bidbot.GameState import GameState  # the shim, on sys.path in a bidbot-style process

        main = _own_function(self._module, "main") if self._use_main else None
        if main is not None:
            h = self._handoff = _Handoff()

            def run() -> None:
                _local.handoff = h
                try:
                    main()
                except SystemExit:
                    pass
                except BaseException as e:  # reported by the seat that waits for the bot
                    h.error = e
                finally:
                    h.ready.set()

            self._thread = threading.Thread(target=run, name=f"bidbot-main-{setup.seat}", daemon=True)
            with _argv_lock:
                saved = sys.argv
                sys.argv = [getattr(self._module, "__file__", None) or "bot.py"]
                try:
                    self._thread.start()
                    ready = h.ready.wait(CONNECT_TIMEOUT)
                finally:
                    sys.argv = saved
            if not ready:
                raise TimeoutError(f"main() did not call bidbot.BotClient.connect within {CONNECT_TIMEOUT:g}s")
            if h.bot is None:
                if h.error is not None:
                    raise h.error
                raise RuntimeError("main() returned without calling bidbot.BotClient.connect(host, port, username, bot)")
            self.inner = h.bot
        elif self._cls is not None:
            self.inner = self._cls(setup.own_name)
        else:
            raise RuntimeError("the file has no main() and no BidBot subclass")
        self.gs = GameState()
        self.gs.start_money = setup.start_money
        self.gs.opponent_username = setup.opponent_name

    def _fill(self, s: bidding.State) -> Any:
        gs = self.gs
        gs.opponent_username = s.opponent_name
        gs.player_identifier = {bidding.Side.A: 0, bidding.Side.B: 1}.get(s.side, 3)
        gs.my_money = s.own_money
        gs.opponent_money = s.opponent_money
        gs.start_money = s.start_money
        gs.bottle_position = s.bottle_position
        gs.my_bids = list(s.own_bids)
        gs.opponents_bids = list(s.opponent_bids)
        gs.rounds_won = s.rounds_won
        gs.rounds_lost = s.rounds_lost
        gs.draw_advantage = s.draw_advantage
        return gs

    def bid(self, state: bidding.State) -> Any:
        gs = self._fill(state)
        b = self.inner.get_bid(gs)
        if _is_int(b) and (b < 0 or b > state.own_money or (b == 0 and state.own_money > 0)):
            # The server rejected such a bid; in the arena the game is then lost (no re-ask).
            hook = getattr(self.inner, "bid_rejected", None)
            if hook is not None:
                hook(gs, b)
        return b

    def end(self, outcome: Any) -> None:
        if self._handoff is not None:
            self._handoff.done.set()  # connect() returns: the games are over
        if self._thread is not None:
            self._thread.join(2.0)
