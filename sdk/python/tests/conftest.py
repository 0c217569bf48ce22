"""Shared helpers: bot files in temporary folders, bot processes, client certificates."""

from __future__ import annotations

import base64
import datetime
import os
import select
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

# Test this checkout's SDK, not whatever copy pip installed last (the subprocesses too).
SRC = str(Path(__file__).resolve().parents[1] / "src")
sys.path.insert(0, SRC)

import grpc  # noqa: E402
import pytest  # noqa: E402
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

COOKIE = {"ARENA_BOT_COOKIE": "b0t-4r3n4-c0nt3st-v1"}


def slack(seconds: float) -> float:
    """An allowance of wall time stretched by the tests' one slack factor, ARENA_TEST_SLACK
    (default 2), the same knob the Go tests read (internal/slack): raise it on a loaded machine."""
    raw = os.environ.get("ARENA_TEST_SLACK", "2")
    try:
        factor = float(raw)
    except ValueError:
        factor = float("nan")
    if not 1 <= factor <= 1000:
        raise ValueError(f"ARENA_TEST_SLACK={raw!r}: want a number from 1 to 1000")
    return seconds * factor


def with_src(env: dict[str, str]) -> dict[str, str]:
    """env with this checkout's SDK first on PYTHONPATH."""
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = SRC + (os.pathsep + old if old else "")
    return env
HANDSHAKE_TIMEOUT = 20.0


@pytest.fixture
def write_bot(tmp_path: Path):  # type: ignore[no-untyped-def]
    """write_bot(source, name="bot.py") writes a dedented bot file and returns its path."""

    def write(source: str, name: str = "bot.py") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source))
        return path

    return write


def client_cert(curve: ec.EllipticCurve) -> tuple[bytes, bytes]:
    """A one-time client certificate like go-plugin's (CN/SAN localhost, self-signed CA);
    returns (cert PEM, key PEM). go-plugin itself uses P-521."""
    key = ec.generate_private_key(curve)
    name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "HashiCorp"),
                      x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(seconds=30)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(True, False, True, False, True, True, False, False, False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH, ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .sign(key, hashes.SHA512() if isinstance(curve, ec.SECP521R1) else hashes.SHA256()))
    return (cert.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                              serialization.NoEncryption()))


@dataclass
class BotProcess:
    proc: subprocess.Popen[bytes]
    handshake: str
    fields: list[str]
    channel: grpc.Channel

    @property
    def socket_path(self) -> str:
        return self.fields[3]


def server_cert_pem(field: str) -> bytes:
    """The PEM of the handshake's certificate field (base64 DER without padding)."""
    der = base64.b64decode(field + "=" * (-len(field) % 4))
    return x509.load_der_x509_certificate(der).public_bytes(serialization.Encoding.PEM)


def start_bot(bot: Path, env: dict[str, str] | None = None, cert: tuple[bytes, bytes] | None = None,
              stdin: int | None = subprocess.DEVNULL, pass_fds: tuple[int, ...] = ()) -> BotProcess:
    """Starts ``python3 -m arena_sdk bot`` like the host does and connects a gRPC channel;
    pass_fds are inherited (the fast lane's end)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("PLUGIN_")}
    full.update(COOKIE)
    full["PLUGIN_PROTOCOL_VERSIONS"] = "1"
    full["PLUGIN_UNIX_SOCKET_DIR"] = str(bot.parent)
    if cert is not None:
        full["PLUGIN_CLIENT_CERT"] = cert[0].decode()
    full.update(env or {})
    proc = subprocess.Popen([sys.executable, "-m", "arena_sdk", bot.name], cwd=bot.parent, env=with_src(full),
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=pass_fds)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], HANDSHAKE_TIMEOUT)
    line = proc.stdout.readline().decode() if ready else ""
    if not line:
        proc.kill()
        raise AssertionError(f"no handshake; stderr:\n{proc.communicate(timeout=10)[1].decode()}")
    fields = line.rstrip("\n").split("|")
    if cert is None:
        channel = grpc.insecure_channel("unix:" + fields[3])
    else:
        creds = grpc.ssl_channel_credentials(root_certificates=server_cert_pem(fields[5]),
                                             private_key=cert[1], certificate_chain=cert[0])
        channel = grpc.secure_channel("unix:" + fields[3], creds,
                                      options=[("grpc.ssl_target_name_override", "localhost")])
    grpc.channel_ready_future(channel).result(timeout=HANDSHAKE_TIMEOUT)
    return BotProcess(proc, line, fields, channel)


@pytest.fixture
def bot_process() -> Iterator:  # type: ignore[type-arg]
    """bot_process(path, ...) starts a bot process that is killed at the end of the test."""
    started: list[BotProcess] = []

    def start(bot: Path, **kw: object) -> BotProcess:
        b = start_bot(bot, **kw)  # type: ignore[arg-type]
        started.append(b)
        return b

    yield start
    for b in started:
        b.channel.close()
        if b.proc.poll() is None:
            b.proc.kill()
        b.proc.communicate(timeout=10)
