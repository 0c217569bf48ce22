"""The bot process as the host sees it: real subprocesses, real sockets, real TLS."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from conftest import COOKIE, client_cert, server_cert_pem, slack, with_src
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from google.protobuf import empty_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena_sdk._pb.arena.v1 import bot_pb2, bot_pb2_grpc
from arena_sdk._pb.plugin import controller_pb2, controller_pb2_grpc, stdio_pb2_grpc
from arena_sdk.games import SIGNATURES

PAPER = """
    from arena_sdk import dynamite

    class Paper(dynamite.Bot):
        def move(self, state):
            return "P"
"""


def run_by_hand(bot: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "ARENA_BOT_COOKIE" and not k.startswith("PLUGIN_")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "arena_sdk", str(bot)], env=with_src(full), capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_without_cookie_explains_how_to_play(write_bot) -> None:
    bot = write_bot(PAPER)
    r = run_by_hand(bot, {})
    assert r.returncode == 1
    assert r.stdout == ""  # nothing on the handshake channel
    assert "arena bot" in r.stderr
    assert f"arena play dynamite {bot} bots/dynamite/" in r.stderr


def test_message_names_the_game_the_file_imports(write_bot) -> None:
    bot = write_bot("from arena_sdk import finger\n")
    r = run_by_hand(bot, {"ARENA_BOT_COOKIE": "wrong"})
    assert r.returncode == 1
    assert "arena play finger" in r.stderr


def test_running_the_file_directly_explains_too(write_bot) -> None:
    bot = write_bot(PAPER)
    full = {k: v for k, v in os.environ.items() if k != "ARENA_BOT_COOKIE"}
    r = subprocess.run([sys.executable, str(bot)], env=with_src(full), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == ""
    assert f"arena play dynamite {bot} bots/dynamite/" in r.stderr


def test_refuses_other_protocol_versions(write_bot) -> None:
    r = run_by_hand(write_bot(PAPER), {**COOKIE, "PLUGIN_PROTOCOL_VERSIONS": "2,3"})
    assert r.returncode == 1
    assert r.stdout == ""
    assert "protocol version 1" in r.stderr and "'2,3'" in r.stderr


def test_no_bot_in_file_lists_the_apis_looked_for(write_bot) -> None:
    r = run_by_hand(write_bot("x = 1\n"), {**COOKIE})
    assert r.returncode == 1
    assert r.stdout == ""
    for game in SIGNATURES:  # every game (TestEveryGame checks the table against the registry)
        assert f"arena_sdk.{game}.Bot" in r.stderr


def test_import_error_shows_the_user_traceback(write_bot) -> None:
    r = run_by_hand(write_bot("import no_such_module_here\n"), {**COOKIE})
    assert r.returncode == 1
    assert "No module named 'no_such_module_here'" in r.stderr
    assert "bot.py" in r.stderr


def test_handshake_line_without_tls(write_bot, bot_process) -> None:
    b = bot_process(write_bot(PAPER))
    assert re.fullmatch(r"1\|1\|unix\|/\S+\|grpc\n", b.handshake), b.handshake
    assert Path(b.socket_path).parent == Path(write_bot(PAPER)).parent  # PLUGIN_UNIX_SOCKET_DIR
    stub = bot_pb2_grpc.BotServiceStub(b.channel)
    d = stub.Describe(bot_pb2.DescribeRequest(host_version="test"), timeout=10)
    assert (d.name, list(d.games), d.sdk) == ("Paper", ["dynamite"], "python/0.1.0")


@pytest.mark.parametrize("curve", [ec.SECP521R1(), ec.SECP256R1()], ids=["go-plugin-P521", "P256"])
def test_mtls_describe_start_actstream(write_bot, bot_process, curve) -> None:
    cert = client_cert(curve)
    b = bot_process(write_bot(PAPER), cert=cert)
    assert len(b.fields) == 6, b.handshake
    field = b.fields[5]
    assert "=" not in field and re.fullmatch(r"[A-Za-z0-9+/]+", field)  # Go's RawStdEncoding
    server = x509.load_pem_x509_certificate(server_cert_pem(field))
    assert server.subject.get_attributes_for_oid(x509.oid.NameOID.COMMON_NAME)[0].value == "localhost"
    san = server.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == ["localhost"]

    stub = bot_pb2_grpc.BotServiceStub(b.channel)
    assert stub.Describe(bot_pb2.DescribeRequest(), timeout=10).name == "Paper"
    start = stub.Start(bot_pb2.StartRequest(match_id="m", seat=1, game="dynamite", deadline_ms=1000,
                                            dynamite=dict(target_score=1000, max_rounds=2500,
                                                          dynamite_per_player=100)), timeout=10)
    assert start.error == ""
    reqs = [bot_pb2.ActStreamRequest(act=bot_pb2.ActRequest(match_id="m", seat=1, step=i, deadline_ms=1000,
                                                            dynamite=dict(round=i)))
            for i in range(1, 6)]
    answers = list(stub.ActStream(iter(reqs), timeout=20))
    assert [a.act.step for a in answers] == [1, 2, 3, 4, 5]
    assert all(a.act.dynamite.move == 2 for a in answers)  # paper

    # The SDK answers the health check on raw bytes (_service.health_handler): the standard
    # client's view of it is the standard service's.
    health = health_pb2_grpc.HealthStub(b.channel)
    for service in ("plugin", ""):
        assert health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10).status == \
            health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.RpcError) as unknown:
        health.Check(health_pb2.HealthCheckRequest(service="arena.v1.BotService" * 9), timeout=10)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND


@pytest.mark.parametrize("curve", [ec.SECP521R1(), ec.SECP256R1()], ids=["go-plugin-P521", "P256"])
def test_mtls_refuses_another_client_certificate(write_bot, bot_process, curve) -> None:
    b = bot_process(write_bot(PAPER), cert=client_cert(curve))
    intruder = client_cert(curve)
    creds = grpc.ssl_channel_credentials(root_certificates=server_cert_pem(b.fields[5]),
                                         private_key=intruder[1], certificate_chain=intruder[0])
    ch = grpc.secure_channel("unix:" + b.socket_path, creds, options=[("grpc.ssl_target_name_override", "localhost")])
    with pytest.raises(grpc.RpcError):
        bot_pb2_grpc.BotServiceStub(ch).Describe(bot_pb2.DescribeRequest(), timeout=3)
    ch.close()


NOISY = """
    import os, subprocess, sys
    from arena_sdk import dynamite

    print("printed at import")
    os.write(1, b"raw write to fd 1 at import\\n")

    class Noisy(dynamite.Bot):
        def move(self, state):
            print("printed in move", state.round)
            sys.__stdout__.write("via sys.__stdout__\\n")
            sys.__stdout__.flush()
            subprocess.run(["echo", "from a child process"], check=True)
            return "R"
"""


def test_user_output_never_reaches_the_handshake_channel(write_bot, bot_process) -> None:
    b = bot_process(write_bot(NOISY))
    stub = bot_pb2_grpc.BotServiceStub(b.channel)
    stub.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="dynamite", dynamite={}), timeout=10)
    r = stub.Act(bot_pb2.ActRequest(match_id="m", seat=0, step=1, dynamite=dict(round=1)), timeout=10)
    assert r.dynamite.move == 1 and not r.HasField("error")
    controller_pb2_grpc.GRPCControllerStub(b.channel).Shutdown(controller_pb2.Empty(), timeout=10)
    out, err = b.proc.communicate(timeout=10)
    assert out == b""  # after the handshake line the real stdout is closed
    text = err.decode()
    for line in ("printed at import", "raw write to fd 1 at import", "printed in move 1", "via sys.__stdout__",
                 "from a child process"):
        assert line in text


def test_input_raises_instead_of_blocking(write_bot, bot_process) -> None:
    bot = write_bot("""
        from arena_sdk import dynamite

        class Asks(dynamite.Bot):
            def move(self, state):
                return input("your move? ")
    """)
    # Even with a stdin that stays open, the SDK detaches it.
    b = bot_process(bot, stdin=subprocess.PIPE)
    stub = bot_pb2_grpc.BotServiceStub(b.channel)
    stub.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="dynamite", dynamite={}), timeout=10)
    r = stub.Act(bot_pb2.ActRequest(match_id="m", seat=0, step=7, dynamite=dict(round=1)), timeout=10)
    assert r.step == 7
    assert r.error.kind == bot_pb2.BOT_ERROR_KIND_EXCEPTION
    assert "EOFError" in r.error.message


def test_shutdown_exits_promptly_and_stdio_stays_open(write_bot, bot_process) -> None:
    bot = write_bot("""
        import threading, time
        from arena_sdk import dynamite

        # A non-daemon thread of user code must not keep the process alive after Shutdown.
        threading.Thread(target=lambda: time.sleep(3600)).start()

        class Paper(dynamite.Bot):
            def move(self, state):
                return "P"
    """)
    b = bot_process(bot, cert=client_cert(ec.SECP521R1()))
    stdio = stdio_pb2_grpc.GRPCStdioStub(b.channel).StreamStdio(empty_pb2.Empty(), timeout=0.5)
    with pytest.raises(grpc.RpcError) as e:
        list(stdio)
    assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED  # open, not unimplemented
    t = time.monotonic()
    controller_pb2_grpc.GRPCControllerStub(b.channel).Shutdown(controller_pb2.Empty(), timeout=10)
    assert b.proc.wait(timeout=5) == 0
    assert time.monotonic() - t < slack(1.0)  # the user's hour-long thread is not waited for
    assert not os.path.exists(b.socket_path)


def test_eleven_realtv_seats_stream_at_once(write_bot, bot_process) -> None:
    bot = write_bot("""
        import threading
        from arena_sdk import realtv

        class Waits(realtv.Bot):
            ready = threading.Barrier(11)  # every instance must be inside its vote at once

            def start(self, setup):
                self.strength = setup.strength

            def vote_for_elimination(self, ctx):
                if ctx.day == 1:
                    Waits.ready.wait(timeout=20)
                return realtv.weakest({k: p for k, p in ctx.active_players.items() if k != ctx.own_id})

            def vote_for_tie(self, ctx):
                return None
    """)
    b = bot_process(bot)
    stub = bot_pb2_grpc.BotServiceStub(b.channel)
    ids = [f"ID{i:08d}" for i in range(11)]
    for i in range(11):
        r = stub.Start(bot_pb2.StartRequest(match_id="contest", seat=i, game="realtv",
                                            realtv=dict(id=ids[i], name="Waits", strength=i, instance=i)), timeout=10)
        assert r.error == ""
    active = {pid: dict(id=pid, strength=s) for s, pid in enumerate(ids)}

    def play(seat: int) -> list[str]:
        reqs = (bot_pb2.ActStreamRequest(act=bot_pb2.ActRequest(
            match_id="contest", seat=seat, step=day, deadline_ms=1000,
            realtv=dict(decision=1, day=day, own_id=ids[seat], active_players=active))) for day in (1, 2, 3))
        return [a.act.realtv.vote_id for a in stub.ActStream(reqs, timeout=30)]

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(11) as pool:
        votes = list(pool.map(play, range(11)))
    assert votes[0] == [ids[1]] * 3  # the weakest other player
    assert all(v == [ids[0]] * 3 for v in votes[1:])


#: Modules a served bot must not import before its first move (issue 23, start-up): each costs
#: milliseconds of every bot's start, and the served path does without them.
NOT_AT_START = ("cryptography.x509", "cryptography.hazmat.backends.openssl.backend", "secrets", "tempfile",
                "arena_sdk.finger", "arena_sdk.bidding", "arena_sdk.auction", "arena_sdk.realtv",
                "grpc_health.v1.health", "grpc_health.v1.health_pb2")


def test_start_up_imports_stay_lean(write_bot, bot_process) -> None:
    bot = write_bot(f"""
        import sys
        from arena_sdk import dynamite

        class Lean(dynamite.Bot):
            def move(self, state):
                raise RuntimeError("loaded: " + ",".join(m for m in {NOT_AT_START!r} if m in sys.modules))
    """, "lean_bot.py")
    b = bot_process(bot, cert=client_cert(ec.SECP521R1()))  # go-plugin's curve: the TLS proxy's path
    stub = bot_pb2_grpc.BotServiceStub(b.channel)
    stub.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="dynamite", dynamite={}), timeout=10)
    r = stub.Act(bot_pb2.ActRequest(match_id="m", seat=0, step=1, dynamite=dict(round=1)), timeout=10)
    assert r.error.message == "RuntimeError: loaded: "
