"""The fast lane: moves as length-prefixed ActRequest/ActResponse frames on a socket the host
hands the bot at spawn. A socketpair stands in for the host; the lane's loop runs in a thread
(in-process tests) or in a real bot process (the last tests)."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator

import pytest
from conftest import start_bot

from arena_sdk import _lane, loader
from arena_sdk._pb.arena.v1 import bot_pb2, bot_pb2_grpc
from arena_sdk._service import BotServicer

EXC = bot_pb2.BOT_ERROR_KIND_EXCEPTION
INVALID = bot_pb2.BOT_ERROR_KIND_INVALID_ANSWER

COUNTER = """
    from arena_sdk import dynamite

    class Counter(dynamite.Bot):
        def __init__(self):
            self.n = 0

        def move(self, state):
            self.n += 1
            if state.round == 13:
                raise ValueError(f"unlucky round {state.round}")
            if state.round == 14:
                return "X"
            return "RPS"[self.n % 3]
"""


def frame(msg: bot_pb2.ActRequest) -> bytes:
    body = msg.SerializeToString()
    return len(body).to_bytes(4, "big") + body


def read_exact(s: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        assert chunk, f"the lane closed after {len(out)} of {n} bytes"
        out += chunk
    return out


def answer(s: socket.socket) -> bot_pb2.ActResponse:
    n = int.from_bytes(read_exact(s, 4), "big")
    return bot_pb2.ActResponse.FromString(read_exact(s, n))


def request(match: str, seat: int, step: int, rnd: int) -> bot_pb2.ActRequest:
    return bot_pb2.ActRequest(match_id=match, seat=seat, step=step, deadline_ms=1000,
                              dynamite=dict(round=rnd))


def start(s: BotServicer, match: str, seat: int) -> None:
    r = s.Start(bot_pb2.StartRequest(match_id=match, seat=seat, game="dynamite", players=["a", "b"],
                                     deadline_ms=1000, dynamite=dict(target_score=1000, max_rounds=2500,
                                                                     dynamite_per_player=100)), None)
    assert r.error == ""


class Lane:
    """The host's end of a lane whose bot end is served by _lane.serve in a thread."""

    def __init__(self, servicer: BotServicer) -> None:
        self.host, bot = socket.socketpair()
        self._bot = bot
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(servicer,), daemon=True)
        self.thread.start()

    def _run(self, servicer: BotServicer) -> None:
        try:
            _lane.serve(self._bot.fileno(), servicer._act_into)
        except BaseException as e:  # the test fails on it below
            self.error = e

    def finish(self) -> None:
        """Waits for the loop to return by itself; it must not raise."""
        self.thread.join(timeout=10)
        assert not self.thread.is_alive(), "the lane's loop did not return"
        assert self.error is None, f"the lane's loop raised {self.error!r}"
        self._bot.close()
        self.host.close()


@pytest.fixture
def lane(write_bot) -> Iterator[tuple[BotServicer, Lane]]:  # type: ignore[no-untyped-def]
    s = BotServicer(loader.load(str(write_bot(COUNTER, "lane_counter_bot.py"))), [_lane.NAME])
    ln = Lane(s)
    yield s, ln
    ln.host.close()
    ln.thread.join(timeout=10)


def test_answers_echo_match_seat_and_step(lane) -> None:
    s, ln = lane
    start(s, "m", 1)
    for step in (1, 2, 3):
        ln.host.sendall(frame(request("m", 1, step, step)))
        r = answer(ln.host)
        assert (r.match_id, r.seat, r.step) == ("m", 1, step)
        assert r.dynamite.move == [2, 3, 1][step - 1]  # P, S, R from the seat's own counter
    ln.host.shutdown(socket.SHUT_WR)  # EOF between frames: the host is done
    ln.finish()
    assert s.Describe(bot_pb2.DescribeRequest(), None).lanes == [_lane.NAME]


def test_several_seats_interleaved_before_any_answer(lane) -> None:
    s, ln = lane
    seats = [("m1", 0), ("m1", 1), ("m2", 0), ("contest", 7)]
    for m, seat in seats:
        start(s, m, seat)
    # Two steps of every seat written in one go, as the host does for a step, before reading.
    ln.host.sendall(b"".join(frame(request(m, seat, step, step)) for step in (1, 2) for m, seat in seats))
    got = [answer(ln.host) for _ in range(2 * len(seats))]
    assert [(r.match_id, r.seat, r.step) for r in got] == [(m, seat, step) for step in (1, 2) for m, seat in seats]
    assert all(r.dynamite.move == 2 for r in got[:4]) and all(r.dynamite.move == 3 for r in got[4:])  # per seat
    ln.host.shutdown(socket.SHUT_WR)
    ln.finish()


def test_bot_errors_as_on_grpc(lane, capsys) -> None:
    s, ln = lane
    start(s, "m", 0)
    ln.host.sendall(frame(request("m", 0, 13, 13)) + frame(request("m", 0, 14, 14)) + frame(request("nope", 3, 1, 1)))
    raised, invalid, unknown = answer(ln.host), answer(ln.host), answer(ln.host)
    assert (raised.step, raised.error.kind, raised.error.message) == (13, EXC, "ValueError: unlucky round 13")
    assert "lane_counter_bot.py" in raised.error.traceback and "_lane.py" not in raised.error.traceback
    assert raised.WhichOneof("action") is None
    assert (invalid.step, invalid.error.kind) == (14, INVALID) and "'X'" in invalid.error.message
    assert (unknown.match_id, unknown.seat, unknown.error.kind) == ("nope", 3, INVALID)
    assert "no open seat 3" in unknown.error.message
    ln.host.shutdown(socket.SHUT_WR)
    ln.finish()
    assert "unlucky round 13" in capsys.readouterr().err  # the traceback is in the bot's log too


@pytest.mark.parametrize("tail", [b"\x00\x00", b"\x00\x00\x00\x10abc"], ids=["in the length", "in the body"])
def test_eof_inside_a_frame_ends_the_loop_quietly(lane, capsys, tail) -> None:
    s, ln = lane
    start(s, "m", 0)
    ln.host.sendall(frame(request("m", 0, 1, 1)) + tail)
    assert answer(ln.host).step == 1  # the whole frame before it is answered
    ln.host.shutdown(socket.SHUT_WR)
    ln.finish()
    assert "closed inside a frame" in capsys.readouterr().err


@pytest.mark.parametrize("bad,said", [
    ((_lane.MAX_FRAME + 1).to_bytes(4, "big"), "at most"),  # no 64 MiB buffer is ever allocated
    (b"\x00\x00\x00\x03\xff\xff\xff", "not an ActRequest"),
], ids=["too long", "not protobuf"])
def test_a_stream_that_is_not_a_lane_is_closed(lane, capsys, bad, said) -> None:
    s, ln = lane
    ln.host.sendall(bad)
    ln.finish()  # returns without reading on or raising
    assert said in capsys.readouterr().err


def test_host_gone_while_answering(write_bot, capsys) -> None:
    s = BotServicer(loader.load(str(write_bot("""
        import time
        from arena_sdk import dynamite

        class Slow(dynamite.Bot):
            def move(self, state):
                time.sleep(0.2)
                return "R"
    """, "lane_slow_bot.py"))))
    start(s, "m", 0)
    ln = Lane(s)
    ln.host.sendall(frame(request("m", 0, 1, 1)))
    ln.host.close()  # before the answer: the write fails with EPIPE, which must not raise
    ln.thread.join(timeout=10)
    assert not ln.thread.is_alive() and ln.error is None
    assert "writing to the lane failed" in capsys.readouterr().err


# -- take_fd: what the host's variable may hold --------------------------------------------------


def test_take_fd_accepts_a_socket_and_hides_it() -> None:
    a, b = socket.socketpair()
    with a, b:
        os.set_inheritable(b.fileno(), True)
        env = {_lane.ENV: str(b.fileno()), "OTHER": "x"}
        assert _lane.take_fd(env) == b.fileno()
        assert env == {"OTHER": "x"}  # programs the bot starts do not see it
        assert not os.get_inheritable(b.fileno())  # nor inherit it
    assert _lane.take_fd({}) is None


@pytest.mark.parametrize("value,said", [("abc", "not a descriptor number"), ("-3", "not a descriptor number"),
                                        ("٣", "not a descriptor number"), ("1", "stdout"),
                                        ("987654", "not an open descriptor"), ("file", "not a socket")])
def test_take_fd_refuses_what_is_not_a_lane(tmp_path, capsys, value, said) -> None:
    f = open(tmp_path / "plain", "w")
    with f:
        env = {_lane.ENV: str(f.fileno()) if value == "file" else value}
        assert _lane.take_fd(env) is None
    err = capsys.readouterr().err
    assert said in err and "moves go over gRPC" in err


# -- a real bot process ------------------------------------------------------------------------


def test_bot_process_plays_on_the_lane(write_bot) -> None:
    bot = write_bot(COUNTER, "proc_lane_bot.py")
    host, theirs = socket.socketpair()
    b = start_bot(bot, env={_lane.ENV: str(theirs.fileno())}, pass_fds=(theirs.fileno(),))
    theirs.close()
    try:
        stub = bot_pb2_grpc.BotServiceStub(b.channel)
        assert list(stub.Describe(bot_pb2.DescribeRequest(), timeout=10).lanes) == [_lane.NAME]
        for seat in (0, 1):
            r = stub.Start(bot_pb2.StartRequest(match_id="m", seat=seat, game="dynamite", dynamite={}), timeout=10)
            assert r.error == ""
        host.sendall(frame(request("m", 0, 1, 1)) + frame(request("m", 1, 1, 1)) + frame(request("m", 0, 2, 2)))
        got = [answer(host) for _ in range(3)]
        assert [(r.seat, r.step, r.dynamite.move) for r in got] == [(0, 1, 2), (1, 1, 2), (0, 2, 3)]
        host.close()  # the host is done with the lane: the bot goes on serving gRPC
        assert stub.Describe(bot_pb2.DescribeRequest(), timeout=10).name == "Counter"
        assert b.proc.poll() is None
    finally:
        host.close()
        b.channel.close()
        b.proc.kill()
        b.proc.communicate(timeout=10)


def test_bot_process_without_a_valid_lane_plays_over_grpc(write_bot) -> None:
    bot = write_bot(COUNTER, "proc_nolane_bot.py")
    b = start_bot(bot, env={_lane.ENV: "not-a-number"})
    try:
        stub = bot_pb2_grpc.BotServiceStub(b.channel)
        assert list(stub.Describe(bot_pb2.DescribeRequest(), timeout=10).lanes) == []
        stub.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="dynamite", dynamite={}), timeout=10)
        r = stub.Act(request("m", 0, 5, 1), timeout=10)
        assert (r.step, r.dynamite.move) == (5, 2)
    finally:
        b.channel.close()
        b.proc.kill()
        _, err = b.proc.communicate(timeout=10)
    assert b"ARENA_LANE_FD='not-a-number' is not a descriptor number" in err
