"""The fast lane (docs/protocol.md, "The fast lane"): moves as length-prefixed protobuf frames on
a socket the host hands the bot process at spawn, instead of gRPC's ActStream.

The host passes its end of a socketpair as an inherited descriptor named by ``ARENA_LANE_FD``.
A bot that finds a valid one announces :data:`NAME` in ``DescribeResponse.lanes``; the host then
sends every move of every seat the process holds there, while Describe, Start and End stay on
gRPC. A frame is a 4-byte big-endian length N and N bytes of one message: host to bot an
``ActRequest``, bot to host an ``ActResponse`` echoing ``match_id``, ``seat`` and ``step``.

The loop is one thread doing plain blocking ``os.read``/``os.write``: no grpcio threads, no
asyncio, no wake-ups between the host's write and the user's code beyond the read itself. That
is the point of the lane: a gRPC move spends most of its time putting threads to sleep and
waking them (issue 23). Requests for several seats may arrive before any answer is written
(realtv's eleven seats of one script); each is answered in the order it arrived.

A leaf of the SDK's import graph: it imports only the standard library and, lazily, the
generated ``bot_pb2``.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from typing import TYPE_CHECKING, Callable, Final

if TYPE_CHECKING:
    from collections.abc import MutableMapping

    from arena_sdk._pb.arena.v1 import bot_pb2

#: The environment variable naming the bot's end of the lane.
ENV: Final = "ARENA_LANE_FD"
#: The lane's name in DescribeResponse.lanes.
NAME: Final = "frames.v1"
#: The largest frame read: the same bound as a gRPC message to the bot (_runner._MAX_MESSAGE).
#: The host's frames are a few hundred bytes; a length past this is a broken stream.
MAX_FRAME: Final = 64 << 20
#: Bytes asked of one read: several seats' requests, read at once when they are waiting. os.read
#: allocates this much for every read: under glibc's mmap threshold (128 KiB) it comes from the
#: heap; at 256 KiB every move paid an mmap, page faults and munmap (about 15 us of CPU, a third
#: of a move's). A longer frame is read whole (see _fill).
_CHUNK = 64 << 10

#: Fills an ActResponse for an ActRequest that arrived at a time.monotonic() instant.
ActInto = Callable[["bot_pb2.ActRequest", "bot_pb2.ActResponse", float], None]


def _log(text: str) -> None:
    try:
        sys.stderr.write(text if text.endswith("\n") else text + "\n")
        sys.stderr.flush()
    except Exception:  # a closed or broken stderr must not stop the moves
        pass


def take_fd(environ: MutableMapping[str, str] | None = None) -> int | None:
    """The lane's descriptor, if the host offered one that is an open socket; else None.

    The variable is removed from the environment and the descriptor made non-inheritable, so
    programs the bot starts neither see nor inherit the host's channel. A value that is not an
    open socket is explained on stderr (the bot then plays over gRPC, as with no lane).
    """
    env = os.environ if environ is None else environ
    raw = env.pop(ENV, None)
    if raw is None:
        return None
    why = ""
    fd = -1
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        why = "not a descriptor number"
    else:
        fd = int(raw)
        try:
            if fd <= 2:
                why = "stdin, stdout or stderr, never the lane"
            elif not stat.S_ISSOCK(os.fstat(fd).st_mode):
                why = "not a socket"
        except OSError as e:
            why = f"not an open descriptor ({e.strerror})"
    if why:
        _log(f"arena_sdk: {ENV}={raw[:40]!r} is {why}; moves go over gRPC. The arena host sets it "
             f"itself: remove it from the bot's environment.")
        return None
    os.set_inheritable(fd, False)
    return fd


def serve(fd: int, act_into: ActInto) -> None:
    """Answers the requests on fd until the host closes it (EOF), then returns.

    A stream that cannot be a lane (a frame longer than MAX_FRAME, a body that is not an
    ActRequest, a write the host no longer reads) is said on stderr and ends the loop as EOF
    does: the host sees the lane close and charges the seats it was waiting for.
    """
    from arena_sdk._pb.arena.v1 import bot_pb2

    parse = bot_pb2.ActRequest.FromString
    new_response = bot_pb2.ActResponse
    read = os.read
    monotonic = time.monotonic
    buf = b""
    while True:
        # One read may bring several frames (the host writes every seat of a step at once)
        # and may end inside one: keep what is left over for the next round.
        if len(buf) < 4:
            got = _fill(fd, buf, 4, read)
            if got is None:
                return
            buf = got
        n = int.from_bytes(buf[:4], "big")
        if n > MAX_FRAME:
            _log(f"arena_sdk: the lane sent a frame of {n} bytes (at most {MAX_FRAME}): not a lane "
                 f"stream; closing it")
            return
        end = 4 + n
        if len(buf) < end:
            got = _fill(fd, buf, end, read)
            if got is None:
                return
            buf = got
        now = monotonic()
        try:
            req = parse(buf[4:end])
        except Exception as e:  # google.protobuf.message.DecodeError, kept lazy
            _log(f"arena_sdk: the lane sent a frame that is not an ActRequest ({e}); closing it")
            return
        buf = buf[end:]
        resp = new_response()
        act_into(req, resp, now)
        resp.match_id = req.match_id
        resp.seat = req.seat
        body = resp.SerializeToString()
        if not _write_all(fd, len(body).to_bytes(4, "big") + body):
            return


def _fill(fd: int, buf: bytes, want: int, read: Callable[[int, int], bytes]) -> bytes | None:
    """buf extended by reads until it holds want bytes; None at EOF (the host is done)."""
    parts = [buf]
    have = len(buf)
    while have < want:
        try:
            chunk = read(fd, max(_CHUNK, want - have))
        except OSError as e:  # ECONNRESET: the host went away
            _log(f"arena_sdk: reading the lane failed ({e.strerror}); closing it")
            return None
        if not chunk:
            if have:
                _log(f"arena_sdk: the lane closed inside a frame ({have} of {want} bytes); closing it")
            return None
        parts.append(chunk)
        have += len(chunk)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> bool:
    """Writes all of data; False if the host stopped reading (the lane is then closed)."""
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except OSError as e:  # EPIPE (Python ignores SIGPIPE) or ECONNRESET
            _log(f"arena_sdk: writing to the lane failed ({e.strerror}); closing it")
            return False
        view = view[n:]
    return True
