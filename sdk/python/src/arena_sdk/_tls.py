"""go-plugin AutoMTLS, plugin side.

The host puts its one-time client certificate (PEM) in PLUGIN_CLIENT_CERT. The plugin makes its
own one-time self-signed certificate, serves TLS that requires exactly that client certificate,
and returns its certificate on the handshake line as base64 of the DER without padding (Go's
RawStdEncoding). The host then trusts only that certificate and checks the name "localhost".
The certificate mirrors go-plugin's mtls.go: CN and DNS SAN localhost, a CA that signs itself,
server and client auth.
"""

from __future__ import annotations

import base64
import datetime

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def make_server_cert() -> tuple[bytes, bytes, str]:
    """Returns (key PEM, certificate PEM, handshake field)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "HashiCorp"),
        x509.NameAttribute(NameOID.COMMON_NAME, "localhost"),
    ])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(seconds=30))
        .not_valid_after(now + datetime.timedelta(days=365 * 30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                     key_encipherment=True, data_encipherment=False,
                                     key_agreement=True, key_cert_sign=True, crl_sign=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH,
                                              ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    cert_pem = cert.public_bytes(serialization.Encoding.PEM)
    field = base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode("ascii").rstrip("=")
    return key_pem, cert_pem, field


def grpc_can_verify(client_cert_pem: str) -> bool:
    """Whether grpcio's BoringSSL can take this client certificate under TLS 1.3.

    BoringSSL's CertificateRequest lists ECDSA P-256 and P-384 and RSA, but not P-521, which is
    what go-plugin's AutoMTLS generates; Go then sends no certificate at all.
    """
    try:
        cert = x509.load_pem_x509_certificate(client_cert_pem.encode())
        key = cert.public_key()
    except Exception:
        return False
    if isinstance(key, ec.EllipticCurvePublicKey):
        return isinstance(key.curve, (ec.SECP256R1, ec.SECP384R1))
    from cryptography.hazmat.primitives.asymmetric import rsa

    return isinstance(key, rsa.RSAPublicKey)


def pem_to_der(pem: str) -> bytes:
    """The DER bytes of a PEM certificate."""
    return x509.load_pem_x509_certificate(pem.encode()).public_bytes(serialization.Encoding.DER)
