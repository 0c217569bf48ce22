"""Auction bots as the contest wrote them: a client script that builds
``Client(name, (host, port))`` from the ``client`` module, bids with ``make_bid`` and reads each
round with ``receive_round()``, run as ``__main__`` with ``host port [name]`` arguments.

Each seat runs the script, as ``__main__`` with ``sys.argv = [file, host, port, own_name]``, in a
thread of its own. ``Client`` is a pair of queues to the seat: the seat's ``bid()`` hands the
previous round's state to ``receive_round()`` and waits for the script's next ``make_bid``. When
the auction is over the final state (``finished`` true) is handed over; the script's
``exit(0)`` then ends only its thread.
"""

from __future__ import annotations

import builtins
import queue
import sys
import threading
from pathlib import Path
from typing import Any, cast

from arena_sdk import auction

#: How long a script may take to build its Client (imports and set-up) before the seat stops
#: holding sys.argv for it.
CLIENT_TIMEOUT = 10.0

#: How much longer than the host the seat waits for a script's bid. The host times every move
#: (its budget, its wall-time cap, the chess clock) and records an overrun as a timeout naming
#: the limit; the seat must never give up first, since an answer of its own would be a crash.
OVERRUN_GRACE = 5.0

_local = threading.local()
# sys.argv is process-wide: one script at a time reads it, until its Client exists.
_argv_lock = threading.Lock()
_CLOSED = object()


class ScriptEnded(Exception):
    """The script returned or exited before the auction finished."""


class _Channel:
    def __init__(self, setup: auction.Setup) -> None:
        self.setup = setup
        self.rounds: queue.Queue[Any] = queue.Queue()
        self.bids: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.client_made = threading.Event()
        self.client_name = setup.own_name


def _aliased(table: dict[str, Any], ch: _Channel) -> dict[str, Any]:
    """A name table that also answers to the name the script gave its Client."""
    t = dict(table)
    if ch.client_name != ch.setup.own_name and ch.setup.own_name in t:
        t[ch.client_name] = t[ch.setup.own_name]
    return t


class Client:
    """The seed's ``client.Client``, connected to the arena seat running this script."""

    def __init__(self, name: Any = None, address: Any = None, *args: Any, **kwargs: Any) -> None:
        ch: _Channel | None = getattr(_local, "channel", None)
        if ch is None:
            raise RuntimeError("client.Client: no arena seat runs this script in this thread")
        self._ch = ch
        s = ch.setup
        self.name = str(name) if name is not None else s.own_name
        ch.client_name = self.name
        self.address = address
        self.artists_num = s.artists_num
        self.required_count = s.required_count
        self.auction_items = list(s.auction_items)
        self.player_count = s.player_count
        self.wealth_table = _aliased({n: s.start_money for n in s.player_names}, ch)
        self.finished = False
        ch.client_made.set()

    def make_bid(self, bid_item: Any, bid_amount: Any) -> None:
        """Sends this round's bid (for the item on sale; bid_item is not checked)."""
        self._ch.bids.put(("bid", bid_amount))

    def receive_round(self) -> dict[str, Any]:
        """Waits for the round's result: finished, bid_item, bid_winner, winning_bid,
        wealth_table and remain_time ({name: seconds})."""
        st = self._ch.rounds.get()
        if st is _CLOSED:
            raise SystemExit(0)
        self.wealth_table = st["wealth_table"]
        self.finished = st["finished"]
        return cast("dict[str, Any]", st)

    def close(self) -> None:
        pass


def _round(state: auction.State, ch: _Channel, finished: bool) -> dict[str, Any]:
    return {
        "finished": finished,
        "bid_item": state.bid_item,
        "bid_winner": state.bid_winner,
        "winning_bid": state.winning_bid,
        "wealth_table": _aliased(state.wealth_table, ch),
        "remain_time": _aliased(state.remain_time, ch),
    }


class ScriptBot(auction.Bot):
    """One seat running the client script."""

    def __init__(self, path: Path, code: Any) -> None:
        self._path = path
        self._code = code
        self._ch: _Channel | None = None
        self._thread: threading.Thread | None = None
        self._acts = 0

    def start(self, setup: auction.Setup) -> None:
        ch = self._ch = _Channel(setup)
        path, code = self._path, self._code

        def run() -> None:
            _local.channel = ch
            g = {"__name__": "__main__", "__file__": str(path), "__builtins__": builtins,
                 "__package__": None, "__spec__": None, "__doc__": None}
            result: tuple[str, Any] = ("exit", None)
            try:
                exec(code, g)
            except SystemExit:
                pass
            except BaseException as e:  # charged to the seat on its next bid
                result = ("exit", e)
            finally:
                ch.client_made.set()
                ch.bids.put(result)

        with _argv_lock:
            saved = sys.argv
            sys.argv = [str(path), "localhost", "9000", setup.own_name]
            try:
                self._thread = threading.Thread(target=run, name=f"auction-script-{setup.seat}", daemon=True)
                self._thread.start()
                ch.client_made.wait(CLIENT_TIMEOUT)
            finally:
                sys.argv = saved

    def bid(self, state: auction.State) -> Any:
        ch = self._ch
        assert ch is not None
        if self._acts:
            ch.rounds.put(_round(state, ch, False))
        self._acts += 1
        # The host stops waiting at the move's wall-time cap (under the CPU clock a multiple of
        # its budget; never past the chess clock): a script that sleeps through it is a timeout.
        host_waits = max(state.wall_cap - state.elapsed(), state.time_left(), 0.0)
        try:
            kind, value = ch.bids.get(timeout=host_waits + OVERRUN_GRACE)
        except queue.Empty:
            raise TimeoutError(
                f"the script did not call make_bid within the move's wall-time cap of {state.wall_cap:g}s "
                f"(the host stopped waiting then; a timeout)"
            ) from None
        if kind == "exit":
            if value is not None:
                raise value
            raise ScriptEnded("the script ended before the auction finished")
        return value

    def end(self, outcome: Any) -> None:
        ch = self._ch
        if ch is None:
            return
        ch.rounds.put(_round(outcome.state, ch, True))
        ch.rounds.put(_CLOSED)  # a script that keeps reading after the end is stopped
        if self._thread is not None:
            self._thread.join(2.0)
