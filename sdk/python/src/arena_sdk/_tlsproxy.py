"""A TLS terminator in front of the gRPC server, for go-plugin's AutoMTLS client certificate.

go-plugin's host makes its one-time client certificate with a P-521 ECDSA key. Under TLS 1.3 Go
presents such a certificate only if the server's CertificateRequest lists the signature scheme
ecdsa_secp521r1_sha512, and the BoringSSL inside grpcio does not list it (nor can Python change
that or cap the version at TLS 1.2, where Go would present it). The handshake then fails with
PEER_DID_NOT_RETURN_A_CERTIFICATE. Python's own ``ssl`` module (OpenSSL) does list P-521, so the
SDK terminates TLS itself: this proxy listens on the handshake socket, requires exactly the
host's certificate, and passes the plaintext HTTP/2 bytes to the gRPC server on a private unix
socket. Each connection is served by one thread, which does all the TLS work on an
``ssl.SSLObject`` over memory BIOs (so no SSL object is ever used from two threads).
"""

from __future__ import annotations

import os
import select
import socket
import ssl
import sys
import threading

_CHUNK = 256 << 10
_HANDSHAKE_TIMEOUT = 10.0


def context_for(key_pem: bytes, cert_pem: bytes, client_cert_pem: str, private_dir: str) -> ssl.SSLContext:
    """A server context that requires the host's certificate and speaks HTTP/2. private_dir is
    a folder only this process uses (mode 0700), where the key is written for ssl to read."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(cadata=client_cert_pem)
    ctx.set_alpn_protocols(["h2"])
    ctx.options |= ssl.OP_NO_TICKET
    try:
        ctx.num_tickets = 0
    except (AttributeError, ValueError):
        pass
    # load_cert_chain only reads files: write them to the private folder and remove them at once.
    cert_file, key_file = os.path.join(private_dir, "cert.pem"), os.path.join(private_dir, "key.pem")
    try:
        for path, data in ((cert_file, cert_pem), (key_file, key_pem)):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        ctx.load_cert_chain(cert_file, key_file)
    finally:
        for path in (cert_file, key_file):
            try:
                os.unlink(path)
            except OSError:
                pass
    return ctx


class TLSProxy:
    """Accepts TLS connections on ``listen_path`` and relays them to ``target_path``."""

    def __init__(self, ctx: ssl.SSLContext, listen_path: str, target_path: str, client_cert_der: bytes) -> None:
        self._ctx = ctx
        self._target = target_path
        self._client_der = client_cert_der
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(listen_path)
        self._listener.listen(16)

    def start(self) -> None:
        threading.Thread(target=self._accept_loop, name="arena-tls-accept", daemon=True).start()

    def _accept_loop(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), name="arena-tls-conn", daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        inner = None
        try:
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            obj = self._ctx.wrap_bio(incoming, outgoing, server_side=True)
            raw.settimeout(_HANDSHAKE_TIMEOUT)
            _handshake(raw, obj, incoming, outgoing)
            if obj.getpeercert(binary_form=True) != self._client_der:
                raise ssl.SSLError("the peer's certificate is not the host's")
            raw.settimeout(None)
            inner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            inner.connect(self._target)
            _relay(raw, inner, obj, incoming, outgoing)
        except (OSError, ssl.SSLError) as e:
            try:
                sys.stderr.write(f"arena_sdk: TLS connection from the host failed: {e}\n")
            except Exception:
                pass
        finally:
            for s in (raw, inner):
                if s is not None:
                    try:
                        s.close()
                    except OSError:
                        pass


def _handshake(raw: socket.socket, obj: ssl.SSLObject, incoming: ssl.MemoryBIO, outgoing: ssl.MemoryBIO) -> None:
    while True:
        try:
            obj.do_handshake()
            break
        except ssl.SSLWantReadError:
            pending = outgoing.read()
            if pending:
                raw.sendall(pending)
            data = raw.recv(_CHUNK)
            if not data:
                raise ConnectionError("closed during the TLS handshake")
            incoming.write(data)
    pending = outgoing.read()
    if pending:
        raw.sendall(pending)


def _relay(raw: socket.socket, inner: socket.socket, obj: ssl.SSLObject, incoming: ssl.MemoryBIO,
           outgoing: ssl.MemoryBIO) -> None:
    raw_fd, inner_fd = raw.fileno(), inner.fileno()
    poller = select.poll()
    poller.register(raw_fd, select.POLLIN)
    poller.register(inner_fd, select.POLLIN)
    raw_recv, raw_send = raw.recv, raw.sendall
    inner_recv, inner_send = inner.recv, inner.sendall
    read, write, pending_out = obj.read, obj.write, outgoing.read
    feed = incoming.write
    while True:
        for fd, _ in poller.poll():
            if fd == raw_fd:
                data = raw_recv(_CHUNK)
                if not data:
                    return
                feed(data)
                while True:
                    try:
                        plain = read(_CHUNK)
                    except ssl.SSLWantReadError:
                        break
                    except ssl.SSLZeroReturnError:
                        return
                    if not plain:
                        return
                    inner_send(plain)
                    if not incoming.pending and not obj.pending():
                        break  # all consumed: skip the SSLWantReadError round
                out = pending_out()
                if out:  # TLS-level replies (key updates, alerts)
                    raw_send(out)
            else:
                data = inner_recv(_CHUNK)
                if not data:
                    return
                write(data)
                raw_send(pending_out())
