"""``python3 -m arena_sdk bot.py[:ClassName]``: the bot process the arena host starts.

Order matters:
1. Keep a private copy of the real stdout for the handshake line only, and point fd 1 and
   ``sys.stdout`` at stderr, so that nothing user code prints (Python prints, C-level writes,
   child processes) can reach go-plugin's handshake channel. The host keeps stderr in the bot's log.
2. Refuse to run without the host's magic cookie, with a friendly explanation.
3. stdin becomes /dev/null, so ``input()`` raises EOFError instead of waiting.
4. Import the bot file and find its bots (a failure exits with status 1 and says why on stderr).
5. Serve BotService, health, and go-plugin's controller, stdio and broker services on a unix
   socket (AutoMTLS when the host sends its certificate), then print the handshake line.
6. When the host offered the fast lane (``ARENA_LANE_FD``, taken before the bot file is
   imported, so that user code never sees it), answer moves there on the main thread until the
   host closes it; gRPC keeps serving Describe, Start and End (and moves, for a host that does
   not use the lane).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import NoReturn

from arena_sdk import _lane
from arena_sdk._common import user_traceback
from arena_sdk._handshake import (
    COOKIE_KEY,
    COOKIE_VALUE,
    CORE_PROTOCOL_VERSION,
    HOUSE_BOTS,
    PROTOCOL_VERSION,
    SERVED,
    not_served_message,
)
from arena_sdk.loader import LoadError, load

__all__ = ["COOKIE_KEY", "COOKIE_VALUE", "CORE_PROTOCOL_VERSION", "PROTOCOL_VERSION", "HOUSE_BOTS",
           "not_served_message", "main", "serve"]

#: Worker threads of the gRPC server. Every ActStream holds one for its whole match (a realtv
#: script has 11 seats acting at once), and go-plugin's stdio and broker streams hold one each.
MAX_WORKERS = 128
_MAX_MESSAGE = 64 << 20


def redirect_stdout() -> int:
    """Moves fd 1 and sys.stdout onto stderr; returns a private fd of the real stdout."""
    if sys.stdout is not None:
        try:
            sys.stdout.flush()
        except Exception:
            pass
    handshake_fd = os.dup(1)  # not inheritable: child processes of user code never get it
    os.dup2(2, 1)
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    sys.stdout = open(1, "w", buffering=1, encoding=encoding, errors="backslashreplace", closefd=False)
    return handshake_fd


def detach_stdin() -> None:
    """Points fd 0 at /dev/null so that reading stdin ends at once (input() raises EOFError)."""
    fd = os.open(os.devnull, os.O_RDONLY)
    if fd != 0:
        os.dup2(fd, 0)
        os.close(fd)
    if sys.stdin is None or sys.stdin.closed:
        sys.stdin = open(0, "r", closefd=False)


def _fail(message: str, code: int = 1) -> NoReturn:
    sys.stderr.write(message if message.endswith("\n") else message + "\n")
    sys.stderr.flush()
    sys.exit(code)


def check_environment(spec: str) -> None:
    """Exits with status 1 and an explanation unless the arena host started this process."""
    if os.environ.get(COOKIE_KEY) != COOKIE_VALUE:
        _fail(not_served_message(spec))
    versions = os.environ.get("PLUGIN_PROTOCOL_VERSIONS")
    if versions is not None:
        offered = [v.strip() for v in versions.split(",")]
        if str(PROTOCOL_VERSION) not in offered:
            _fail(f"arena_sdk: this bot speaks arena protocol version {PROTOCOL_VERSION}, but the host "
                  f"offers {versions!r}; install the Python SDK that matches your arena "
                  f"(pip install ./sdk/python from the same checkout).")


def main(argv: list[str] | None = None) -> NoReturn:
    args = sys.argv[1:] if argv is None else argv
    handshake_fd = redirect_stdout()
    SERVED[0] = True
    spec = args[0] if len(args) == 1 else ""
    check_environment(spec)
    if len(args) != 1 or args[0].startswith("-"):
        _fail("usage: python3 -m arena_sdk path/to/bot.py[:ClassName]", 2)
    detach_stdin()
    lane_fd = _lane.take_fd()
    try:
        bot = load(spec)
    except LoadError as e:
        _fail(f"arena_sdk: {e}")
    except BaseException as e:  # the bot file itself raised while being imported
        _fail(f"arena_sdk: importing {spec} failed:\n{user_traceback(e)}")
    serve(bot, handshake_fd, lane_fd)


def _exit_now(code: int = 0, cleanup: list[str] | None = None) -> NoReturn:
    for path in cleanup or ():
        try:
            os.unlink(path) if not os.path.isdir(path) else os.rmdir(path)
        except OSError:
            pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(code)


def serve(bot: object, handshake_fd: int, lane_fd: int | None = None) -> NoReturn:
    """Serves until the host sends Shutdown (or the process is killed); moves on the fast lane
    too when lane_fd is the host's channel (see _lane).

    gRPC and the modules built on it (``_service``, the TLS helpers) are imported here, once the
    host's cookie is checked and the bot file is loaded: a bot run by hand gets its explanation
    without paying for (or failing on) the gRPC import. None of them imports this module.
    """
    from concurrent.futures import ThreadPoolExecutor

    # The certificate first: grpc starts threads of its own as soon as a server exists, and
    # importing cryptography beside them costs more (issue 23, start-up).
    client_cert = os.environ.get("PLUGIN_CLIENT_CERT", "")
    cert_field = ""
    if client_cert:
        from arena_sdk._tls import make_server_cert

        try:
            key_pem, cert_pem, cert_field = make_server_cert()
        except Exception as e:
            _fail(f"arena_sdk: cannot make the TLS certificate of the handshake: {e}")

    import grpc

    from arena_sdk._pb.arena.v1 import bot_pb2_grpc
    from arena_sdk._pb.plugin import broker_pb2_grpc, controller_pb2_grpc, stdio_pb2_grpc
    from arena_sdk._service import BotServicer, BrokerServicer, ControllerServicer, StdioServicer, health_handler

    sock_dir = os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or ""
    cleanup: list[str] = []
    if not sock_dir:
        import tempfile

        sock_dir = tempfile.mkdtemp(prefix="arena-bot-")
        cleanup.append(sock_dir)
    sock_path = os.path.join(sock_dir, "plugin" + os.urandom(6).hex())
    cleanup.insert(0, sock_path)

    def shutdown() -> None:
        time.sleep(0.02)  # let the Shutdown answer go out
        _exit_now(0, cleanup)

    server = grpc.server(
        ThreadPoolExecutor(max_workers=MAX_WORKERS, thread_name_prefix="arena-rpc"),
        options=[("grpc.max_receive_message_length", _MAX_MESSAGE),
                 ("grpc.max_send_message_length", _MAX_MESSAGE)],
    )
    servicer = BotServicer(bot, [_lane.NAME] if lane_fd is not None else [])  # type: ignore[arg-type]
    bot_pb2_grpc.add_BotServiceServicer_to_server(servicer, server)
    server.add_generic_rpc_handlers((health_handler(),))
    controller_pb2_grpc.add_GRPCControllerServicer_to_server(ControllerServicer(shutdown), server)
    stdio_pb2_grpc.add_GRPCStdioServicer_to_server(StdioServicer(), server)
    broker_pb2_grpc.add_GRPCBrokerServicer_to_server(BrokerServicer(), server)

    proxy = None
    try:
        if not client_cert:
            bound = server.add_insecure_port("unix:" + sock_path)
        else:
            from arena_sdk._tls import grpc_can_verify

            if grpc_can_verify(client_cert):
                creds = grpc.ssl_server_credentials([(key_pem, cert_pem)], root_certificates=client_cert.encode(),
                                                    require_client_auth=True)
                bound = server.add_secure_port("unix:" + sock_path, creds)
            else:
                # go-plugin's P-521 client certificate: terminate TLS in Python (see _tlsproxy).
                from arena_sdk._tls import pem_to_der
                from arena_sdk._tlsproxy import TLSProxy, context_for

                # A private folder (mkdtemp's mode, without importing tempfile) for the gRPC
                # server's own socket and, briefly, the key files ssl reads.
                inner_dir = os.path.join(sock_dir, "g" + os.urandom(6).hex())
                os.mkdir(inner_dir, 0o700)
                inner_path = os.path.join(inner_dir, "grpc")
                cleanup[1:1] = [inner_path, inner_dir]
                bound = server.add_insecure_port("unix:" + inner_path)
                der = pem_to_der(client_cert)
                ctx = context_for(key_pem, cert_pem, client_cert, inner_dir)
                proxy = TLSProxy(ctx, sock_path, inner_path, der)
    except Exception as e:
        _fail(f"arena_sdk: cannot listen on {sock_path}: {e}")
    if not bound:
        _fail(f"arena_sdk: cannot listen on {sock_path}")
    server.start()
    if proxy is not None:
        proxy.start()

    # What exists now (the interpreter's modules, gRPC's, protobuf's, the bot's) lives as long as
    # the process: frozen out of the collector's reach, a full collection scans only what the
    # moves made, not some 24,000 objects (about 3-4 ms of CPU here, charged to the move it
    # fell in under the CPU clock).
    import gc

    gc.freeze()
    line = f"{CORE_PROTOCOL_VERSION}|{PROTOCOL_VERSION}|unix|{sock_path}|grpc"
    if cert_field:
        line += "|" + cert_field
    os.write(handshake_fd, (line + "\n").encode())
    os.close(handshake_fd)  # nothing else may ever reach go-plugin's stdout

    threading.Thread(target=_watch_parent, args=(os.getppid(), cleanup), name="arena-parent",
                     daemon=True).start()
    if lane_fd is not None:
        try:
            _lane.serve(lane_fd, servicer._act_into)
        except BaseException as e:  # a bug of the SDK's: say it, and let gRPC end the process
            sys.stderr.write(f"arena_sdk: the fast lane failed:\n{user_traceback(e)}")
        os.close(lane_fd)  # the host is done with the lane; Shutdown still comes over gRPC
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        pass
    _exit_now(0, cleanup)


def _watch_parent(parent: int, cleanup: list[str]) -> None:
    """Exits when the host goes away without a Shutdown (the bot is re-parented)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            _exit_now(0, cleanup)
