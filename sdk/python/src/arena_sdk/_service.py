"""BotService and go-plugin's own services, served over one gRPC server."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import grpc

from arena_sdk import __version__, games
from arena_sdk._common import InvalidAnswer, Seat, user_traceback
from arena_sdk._pb.arena.v1 import bot_pb2, bot_pb2_grpc
from arena_sdk._pb.plugin import (
    broker_pb2,
    broker_pb2_grpc,
    controller_pb2,
    controller_pb2_grpc,
    stdio_pb2,
    stdio_pb2_grpc,
)
from arena_sdk.loader import LoadedBot

_EXCEPTION = bot_pb2.BOT_ERROR_KIND_EXCEPTION
_INVALID = bot_pb2.BOT_ERROR_KIND_INVALID_ANSWER
_monotonic = time.monotonic


#: Bound on one error's text: the host refuses a message over 1 MiB and keeps a few KiB anyway.
_MAX_ERROR_TEXT = 64 << 10


def _cut(s: str, n: int = _MAX_ERROR_TEXT) -> str:
    """s with its head and tail kept within about n characters (a 1.4 MB exception message
    must not cost the bot its traceback)."""
    if len(s) <= n:
        return s
    return f"{s[:n // 2]}\n[... {len(s) - n} characters cut by the SDK ...]\n{s[-(n // 2):]}"


def _text(s: str) -> str:
    """s made safe for a proto string field (no lone surrogates)."""
    return s.encode("utf-8", "backslashreplace").decode("utf-8")


def _log(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except Exception:  # a closed or broken stderr must not turn into a bot fault
        pass


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    """Serves arena.v1.BotService for one loaded bot file. Seats are keyed by (match_id, seat);
    calls to different seats run concurrently, calls to one seat one at a time."""

    def __init__(self, bot: LoadedBot, lanes: Sequence[str] = ()) -> None:
        self._bot = bot
        #: The move channels announced in Describe besides gRPC (the fast lane, when offered).
        self._lanes = list(lanes)
        self._seats: dict[tuple[str, int], Seat] = {}
        self._mu = threading.Lock()
        self._seat_classes = {g: e.seat or games.seat_class(g) for g, e in bot.entries.items()}

    # -- BotService -------------------------------------------------------------------------

    def Describe(self, request: bot_pb2.DescribeRequest, context: Any) -> bot_pb2.DescribeResponse:
        b = self._bot
        return bot_pb2.DescribeResponse(name=b.name, author=b.author, version=b.version,
                                        games=sorted(b.entries), sdk=f"python/{__version__}",
                                        lanes=self._lanes)

    def Start(self, request: bot_pb2.StartRequest, context: Any) -> bot_pb2.StartResponse:
        game = request.game
        entry = self._bot.entries.get(game)
        if entry is None:
            if game not in games.SIGNATURES:
                msg = f"this SDK (python/{__version__}) does not know the game {game!r}"
            else:
                plays = ", ".join(sorted(self._bot.entries)) or "nothing"
                msg = f"bot {self._bot.name!r} does not play {game} (it plays {plays})"
            return bot_pb2.StartResponse(error=msg)
        if request.WhichOneof("setup") not in (None, game):
            return bot_pb2.StartResponse(error=f"{game} seat opened with a {request.WhichOneof('setup')} setup")
        try:
            seat = self._seat_classes[game](entry.make(), request)
        except BaseException as e:  # user code (constructor or start hook) failed
            tb = user_traceback(e)
            _log(f"arena_sdk: opening {game} seat {request.seat} of match {request.match_id} failed:\n{tb}")
            return bot_pb2.StartResponse(error=_text(_cut(f"{type(e).__name__}: {e}\n{tb}")))
        with self._mu:
            self._seats[(request.match_id, request.seat)] = seat
        return bot_pb2.StartResponse()

    def _act_into(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float | None = None) -> None:
        """Fills resp for req, whichever lane it came on; now is when req arrived (default:
        this call), the instant the seat's clock for this move starts from."""
        if now is None:
            now = _monotonic()
        resp.step = req.step
        seat = self._seats.get((req.match_id, req.seat))
        if seat is None:
            err = resp.error
            err.kind = _INVALID
            err.message = f"no open seat {req.seat} in match {req.match_id!r}"
            return
        with seat.lock:
            try:
                seat.act(req, resp, now)
            except InvalidAnswer as e:
                resp.ClearField("action")
                err = resp.error
                err.kind = _INVALID
                err.message = _text(str(e))
                _log(f"arena_sdk: invalid answer in match {req.match_id} seat {req.seat} step {req.step}: {e}\n")
            except BaseException as e:  # any failure of user code is the seat's fault, not ours
                resp.ClearField("action")
                tb = user_traceback(e)
                err = resp.error
                err.kind = _EXCEPTION
                err.message = _text(f"{type(e).__name__}: {e}"[:1000])
                err.traceback = _text(_cut(tb))
                _log(f"arena_sdk: bot raised in match {req.match_id} seat {req.seat} step {req.step}:\n{tb}")

    def Act(self, request: bot_pb2.ActRequest, context: Any) -> bot_pb2.ActResponse:
        resp = bot_pb2.ActResponse()
        self._act_into(request, resp)
        return resp

    def ActStream(self, request_iterator: Iterator[bot_pb2.ActStreamRequest],
                  context: Any) -> Iterator[bot_pb2.ActStreamResponse]:
        act_into = self._act_into
        new = bot_pb2.ActStreamResponse
        for wrapped in request_iterator:
            out = new()
            act_into(wrapped.act, out.act)
            yield out

    def End(self, request: bot_pb2.EndRequest, context: Any) -> bot_pb2.EndResponse:
        with self._mu:
            seat = self._seats.pop((request.match_id, request.seat), None)
        if seat is not None:
            with seat.lock:
                try:
                    seat.end(request)
                except BaseException as e:
                    _log(f"arena_sdk: end hook of match {request.match_id} seat {request.seat} raised:\n"
                         f"{user_traceback(e)}")
        return bot_pb2.EndResponse()


# -- go-plugin's services ---------------------------------------------------------------------


class ControllerServicer(controller_pb2_grpc.GRPCControllerServicer):
    """plugin.GRPCController: the host's Kill sends Shutdown and waits up to 2 s for an exit."""

    def __init__(self, on_shutdown: Any) -> None:
        self._on_shutdown = on_shutdown

    def Shutdown(self, request: controller_pb2.Empty, context: Any) -> controller_pb2.Empty:
        # Answer first, then exit from another thread (user threads must not keep us alive).
        threading.Thread(target=self._on_shutdown, name="arena-shutdown", daemon=True).start()
        return controller_pb2.Empty()


def _wait_closed(context: Any) -> None:
    done = threading.Event()
    if context.add_callback(done.set):
        done.wait()


class StdioServicer(stdio_pb2_grpc.GRPCStdioServicer):
    """plugin.GRPCStdio: the arena host reads the bot's raw stderr itself, so this stream stays
    open and carries nothing."""

    def StreamStdio(self, request: Any, context: Any) -> Iterator[stdio_pb2.StdioData]:
        context.send_initial_metadata(())
        _wait_closed(context)
        return
        yield  # pragma: no cover - makes this a generator


#: The services the health check reports SERVING: the whole server ("") and go-plugin's "plugin".
HEALTHY: frozenset[bytes] = frozenset((b"", b"plugin"))
#: grpc.health.v1.HealthCheckResponse{status: SERVING}: field 1, varint 1.
_SERVING = b"\x08\x01"


def _health_service(request: bytes) -> bytes | None:
    """The service field of an encoded grpc.health.v1.HealthCheckRequest (field 1, a string),
    or None for bytes that are not one with a name under 128 bytes (none is served)."""
    if not request:
        return b""
    if len(request) >= 2 and request[0] == 0x0A and request[1] == len(request) - 2:
        return request[2:]
    return None


def _health_check(request: bytes, context: Any) -> bytes:
    service = _health_service(request)
    if service not in HEALTHY:
        context.abort(grpc.StatusCode.NOT_FOUND, "arena_sdk: no such service in the health check")
    return _SERVING


def health_handler() -> grpc.GenericRpcHandler:
    """grpc.health.v1.Health's Check, which go-plugin's Ping calls, on raw bytes: importing
    grpcio-health-checking and building its descriptors cost about 2 ms of CPU of every Python
    bot's start (issue 23, start-up), for one fixed two-byte answer."""
    return grpc.method_handlers_generic_handler(
        "grpc.health.v1.Health", {"Check": grpc.unary_unary_rpc_method_handler(_health_check)})


class BrokerServicer(broker_pb2_grpc.GRPCBrokerServicer):
    """plugin.GRPCBroker: the arena opens no extra connections; the stream stays open."""

    def StartStream(self, request_iterator: Iterator[broker_pb2.ConnInfo],
                    context: Any) -> Iterator[broker_pb2.ConnInfo]:
        context.send_initial_metadata(())
        for _ in request_iterator:
            pass
        return
        yield  # pragma: no cover - makes this a generator
