"""Start-up of a served Python bot, for comparing SDK trees (issue 23, item 3).

Starts ``python -m arena_sdk examples/python/dynamite/bot.py`` as go-plugin does (the cookie, a
P-521 client certificate, so the TLS proxy's path), reads the handshake line, calls Describe over
mutual TLS and kills it; interleaved for every SDK source tree given, beside
``python -c 'import grpc'``. Prints, per tree, the bot process's CPU time (user + system, from
wait4: steadier than wall time on a busy machine) and wall time to Describe.

    python sdk/python/tools/startup.py N SRC_DIR...   # e.g. 20 sdk/python/src /tmp/old/sdk/python/src

Run it with an interpreter that has grpcio, cryptography and pytest (the SDK's [test] extra);
it is also the bots' interpreter. Compile each tree first (python -m compileall -q SRC_DIR), as
pip does, or every start pays for compiling the SDK.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "tests"))

import grpc  # noqa: E402
from conftest import COOKIE, client_cert, server_cert_pem  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402


def cpu_of(pid: int) -> float:
    _, _, ru = os.wait4(pid, 0)
    return ru.ru_utime + ru.ru_stime


def main() -> None:
    n, srcs = int(sys.argv[1]), [str(Path(s).resolve()) for s in sys.argv[2:]]
    sys.path.insert(0, srcs[0])
    from arena_sdk._pb.arena.v1 import bot_pb2, bot_pb2_grpc

    bot = ROOT / "examples/python/dynamite/bot.py"
    cert = client_cert(ec.SECP521R1())
    ref: list[float] = []
    res: dict[str, tuple[list[float], list[float]]] = {s: ([], []) for s in srcs}
    for _ in range(n):
        p = subprocess.Popen([sys.executable, "-c", "import grpc"])
        ref.append(cpu_of(p.pid))
        p.returncode = 0
        for src in srcs:
            env = dict(os.environ, **COOKIE, PLUGIN_PROTOCOL_VERSIONS="1", PYTHONPATH=src,
                       PLUGIN_UNIX_SOCKET_DIR=tempfile.mkdtemp(), PLUGIN_CLIENT_CERT=cert[0].decode())
            t0 = time.perf_counter()
            p = subprocess.Popen([sys.executable, "-m", "arena_sdk", str(bot)], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            assert p.stdout is not None
            f = p.stdout.readline().decode().strip().split("|")
            creds = grpc.ssl_channel_credentials(root_certificates=server_cert_pem(f[5]), private_key=cert[1],
                                                 certificate_chain=cert[0])
            ch = grpc.secure_channel("unix:" + f[3], creds, options=[("grpc.ssl_target_name_override", "localhost")])
            bot_pb2_grpc.BotServiceStub(ch).Describe(bot_pb2.DescribeRequest(), timeout=30)
            wall = time.perf_counter() - t0
            ch.close()
            p.kill()
            res[src][0].append(cpu_of(p.pid))
            p.returncode = 0
            res[src][1].append(wall)
    r50 = statistics.median(ref)
    print(f"python -c 'import grpc': CPU p50 {r50 * 1e3:.0f} ms (n={n})")
    for src in srcs:
        c, w = res[src]
        print(f"{src}: bot CPU to Describe p50 {statistics.median(c) * 1e3:.0f} ms (min {min(c) * 1e3:.0f}), "
              f"{statistics.median(c) / r50:.2f}x import grpc; wall p50 {statistics.median(w) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
