"""go-plugin AutoMTLS, plugin side.

The host puts its one-time client certificate (PEM) in PLUGIN_CLIENT_CERT. The plugin makes its
own one-time self-signed certificate, serves TLS that requires exactly that client certificate,
and returns its certificate on the handshake line as base64 of the DER without padding (Go's
RawStdEncoding). The host then trusts only that certificate and checks the name "localhost".
The certificate mirrors go-plugin's mtls.go: CN and DNS SAN localhost, a CA that signs itself,
server and client auth.

Start-up: ``cryptography`` makes the P-256 key and the ECDSA signature (the standard library has
neither), but the certificate's few fixed fields are written here as DER by a small encoder,
and the host's certificate is read by a small DER reader: importing ``cryptography.x509`` cost
about a sixth of a Python bot's start-up, more than everything else the SDK adds to gRPC but
protobuf (issue 23). ``tests/test_tls.py`` checks the result with ``cryptography.x509``.
"""

from __future__ import annotations

import base64
import datetime
import os
import ssl
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ec import ECDSA
    from cryptography.hazmat.primitives.hashes import HashAlgorithm

# DER tags.
_INTEGER, _BIT_STRING, _OCTET_STRING, _OID, _UTF8 = 0x02, 0x03, 0x04, 0x06, 0x0C
_UTC_TIME, _GENERALIZED_TIME, _SEQUENCE, _SET, _BOOLEAN = 0x17, 0x18, 0x30, 0x31, 0x01

# Object identifiers, DER-encoded (without tag and length).
_OID_EC_PUBLIC_KEY = bytes.fromhex("2a8648ce3d0201")  # 1.2.840.10045.2.1
_OID_P256 = bytes.fromhex("2a8648ce3d030107")  # 1.2.840.10045.3.1.7
_OID_P384 = bytes.fromhex("2b81040022")  # 1.3.132.0.34
_OID_RSA = bytes.fromhex("2a864886f70d010101")  # 1.2.840.113549.1.1.1
_OID_ECDSA_SHA256 = bytes.fromhex("2a8648ce3d040302")  # 1.2.840.10045.4.3.2
_OID_ORGANIZATION = bytes.fromhex("55040a")  # 2.5.4.10
_OID_COMMON_NAME = bytes.fromhex("550403")  # 2.5.4.3
_OID_BASIC_CONSTRAINTS = bytes.fromhex("551d13")  # 2.5.29.19
_OID_KEY_USAGE = bytes.fromhex("551d0f")  # 2.5.29.15
_OID_EXT_KEY_USAGE = bytes.fromhex("551d25")  # 2.5.29.37
_OID_SUBJECT_ALT_NAME = bytes.fromhex("551d11")  # 2.5.29.17
_OID_CLIENT_AUTH = bytes.fromhex("2b06010505070302")  # 1.3.6.1.5.5.7.3.2
_OID_SERVER_AUTH = bytes.fromhex("2b06010505070301")  # 1.3.6.1.5.5.7.3.1


def _tlv(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        return bytes((tag, n)) + body
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes((tag, 0x80 | len(size))) + size + body


def _seq(*parts: bytes) -> bytes:
    return _tlv(_SEQUENCE, b"".join(parts))


def _uint(value: int) -> bytes:
    """A non-negative INTEGER (a leading zero byte keeps its top bit from reading as a sign)."""
    return _tlv(_INTEGER, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def _time(t: datetime.datetime) -> bytes:
    """UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5)."""
    if t.year < 2050:
        return _tlv(_UTC_TIME, t.strftime("%y%m%d%H%M%SZ").encode())
    return _tlv(_GENERALIZED_TIME, t.strftime("%Y%m%d%H%M%SZ").encode())


def _extension(oid: bytes, value: bytes, critical: bool) -> bytes:
    flag = _tlv(_BOOLEAN, b"\xff") if critical else b""
    return _seq(_tlv(_OID, oid), flag, _tlv(_OCTET_STRING, value))


def make_server_cert() -> tuple[bytes, bytes, str]:
    """Returns (key PEM, certificate PEM, handshake field)."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.hashes import SHA256

    key = ec.generate_private_key(ec.SECP256R1())
    pub = key.public_key().public_numbers()
    point = b"\x04" + pub.x.to_bytes(32, "big") + pub.y.to_bytes(32, "big")
    name = _seq(
        _tlv(_SET, _seq(_tlv(_OID, _OID_ORGANIZATION), _tlv(_UTF8, b"HashiCorp"))),
        _tlv(_SET, _seq(_tlv(_OID, _OID_COMMON_NAME), _tlv(_UTF8, b"localhost"))),
    )
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    algorithm = _seq(_tlv(_OID, _OID_ECDSA_SHA256))
    # keyUsage: digitalSignature (bit 0), keyEncipherment (2), keyAgreement (4), keyCertSign (5):
    # bits 0-5 set as 101011, sent as 0xAC with its 2 unused low bits named first.
    key_usage = _tlv(_BIT_STRING, b"\x02\xac")
    extensions = _seq(
        _extension(_OID_BASIC_CONSTRAINTS, _seq(_tlv(_BOOLEAN, b"\xff")), True),
        _extension(_OID_KEY_USAGE, key_usage, True),
        _extension(_OID_EXT_KEY_USAGE, _seq(_tlv(_OID, _OID_CLIENT_AUTH), _tlv(_OID, _OID_SERVER_AUTH)), False),
        _extension(_OID_SUBJECT_ALT_NAME, _seq(_tlv(0x82, b"localhost")), False),  # [2] dNSName
    )
    tbs = _seq(
        _tlv(0xA0, _uint(2)),  # [0] version: v3
        _uint(int.from_bytes(os.urandom(19), "big") >> 1 or 1),  # positive, at most 20 bytes
        algorithm,
        name,
        _seq(_time(now - datetime.timedelta(seconds=30)), _time(now + datetime.timedelta(days=365 * 30))),
        name,
        _seq(_seq(_tlv(_OID, _OID_EC_PUBLIC_KEY), _tlv(_OID, _OID_P256)), _tlv(_BIT_STRING, b"\x00" + point)),
        _tlv(0xA3, extensions),  # [3] extensions
    )
    try:
        signature = key.sign(tbs, _ecdsa_sha256(ec.ECDSA, SHA256()))  # DER Ecdsa-Sig-Value
    except Exception:  # a cryptography that wants its own ECDSA object after all
        signature = key.sign(tbs, ec.ECDSA(SHA256()))
    der = _seq(tbs, algorithm, _tlv(_BIT_STRING, b"\x00" + signature))
    # The key as SEC1 ECPrivateKey ("EC PRIVATE KEY"), which ssl and grpcio both read.
    secret = key.private_numbers().private_value.to_bytes(32, "big")
    key_der = _seq(_uint(1), _tlv(_OCTET_STRING, secret), _tlv(0xA0, _tlv(_OID, _OID_P256)),
                   _tlv(0xA1, _tlv(_BIT_STRING, b"\x00" + point)))
    key_pem = _pem("EC PRIVATE KEY", key_der)
    cert_pem = ssl.DER_cert_to_PEM_cert(der).encode("ascii")
    field = base64.b64encode(der).decode("ascii").rstrip("=")
    return key_pem, cert_pem, field


def _ecdsa_sha256(base: type[ECDSA], hash_: HashAlgorithm) -> ECDSA:
    """ECDSA with hash_, made without ``ECDSA.__init__``, which imports cryptography's whole
    OpenSSL backend (8-10 ms of a bot's start-up) only to check that
    deterministic signing, not used here, is supported. Its two public properties are all that
    signing reads."""

    class _ECDSA(base):  # type: ignore[valid-type,misc]
        def __init__(self) -> None:  # no super().__init__: that is the import avoided
            pass

        @property
        def algorithm(self) -> HashAlgorithm:
            return hash_

        @property
        def deterministic_signing(self) -> bool:
            return False

    return _ECDSA()


def _pem(label: str, der: bytes) -> bytes:
    b64 = base64.b64encode(der).decode("ascii")
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    return (f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----\n").encode("ascii")


# -- reading the host's certificate ----------------------------------------------------------------


def _read(der: bytes, at: int) -> tuple[int, int, int]:
    """(tag, start of body, end of body) of the element at offset at; ValueError if cut short."""
    if at + 2 > len(der):
        raise ValueError("truncated DER")
    tag, first = der[at], der[at + 1]
    at += 2
    if first < 0x80:
        n = first
    else:
        k = first & 0x7F
        if k == 0 or k > 4 or at + k > len(der):
            raise ValueError("bad DER length")
        n = int.from_bytes(der[at:at + k], "big")
        at += k
    if at + n > len(der):
        raise ValueError("truncated DER")
    return tag, at, at + n


def _children(der: bytes, start: int, end: int) -> list[tuple[int, int, int]]:
    out = []
    while start < end:
        tag, body, stop = _read(der, start)
        out.append((tag, body, stop))
        start = stop
    return out


def public_key_kind(der: bytes) -> bytes:
    """The certificate's public-key algorithm: the curve's OID for an EC key, else the
    algorithm's OID (RSA's, for one). ValueError if der is not a certificate."""
    _, body, end = _read(der, 0)  # Certificate
    _, body, end = _read(der, body)  # tbsCertificate
    fields = _children(der, body, end)
    if fields and fields[0][0] == 0xA0:  # [0] version
        fields = fields[1:]
    if len(fields) < 6:
        raise ValueError("not an X.509 certificate")
    _, body, end = fields[5]  # serial, signature, issuer, validity, subject, subjectPublicKeyInfo
    _, body, end = _read(der, body)  # AlgorithmIdentifier
    ids = _children(der, body, end)
    if not ids or ids[0][0] != _OID:
        raise ValueError("not an X.509 certificate")
    alg = der[ids[0][1]:ids[0][2]]
    if alg == _OID_EC_PUBLIC_KEY and len(ids) > 1 and ids[1][0] == _OID:
        return der[ids[1][1]:ids[1][2]]
    return alg


def grpc_can_verify(client_cert_pem: str) -> bool:
    """Whether grpcio's BoringSSL can take this client certificate under TLS 1.3.

    BoringSSL's CertificateRequest lists ECDSA P-256 and P-384 and RSA, but not P-521, which is
    what go-plugin's AutoMTLS generates; Go then sends no certificate at all.
    """
    try:
        kind = public_key_kind(pem_to_der(client_cert_pem))
    except ValueError:
        return False
    return kind in (_OID_P256, _OID_P384, _OID_RSA)


def pem_to_der(pem: str) -> bytes:
    """The DER bytes of a PEM certificate; ValueError if it is not one."""
    return ssl.PEM_cert_to_DER_cert(pem.strip() + "\n")
