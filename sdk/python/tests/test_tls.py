"""The SDK's own certificate and its reading of the host's, checked with cryptography.x509 (which
the SDK no longer imports at start-up: see arena_sdk._tls)."""

from __future__ import annotations

import base64
import datetime
import ssl

import pytest
from conftest import client_cert
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from arena_sdk import _tls
from arena_sdk._tlsproxy import context_for


def test_server_cert_is_what_go_plugin_makes() -> None:
    key_pem, cert_pem, field = _tls.make_server_cert()
    cert = x509.load_pem_x509_certificate(cert_pem)
    assert base64.b64decode(field + "=" * (-len(field) % 4)) == cert.public_bytes(serialization.Encoding.DER)
    assert cert.version == x509.Version.v3 and cert.serial_number > 0
    for who in (cert.subject, cert.issuer):
        assert who.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "localhost"
        assert who.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)[0].value == "HashiCorp"
    now = datetime.datetime.now(datetime.timezone.utc)
    assert cert.not_valid_before_utc < now < cert.not_valid_after_utc
    assert cert.not_valid_after_utc.year >= 2050  # written as GeneralizedTime
    bc = cert.extensions.get_extension_for_class(x509.BasicConstraints)
    assert bc.critical and bc.value.ca and bc.value.path_length is None
    ku = cert.extensions.get_extension_for_class(x509.KeyUsage)
    assert ku.critical
    assert (ku.value.digital_signature, ku.value.key_encipherment, ku.value.key_agreement, ku.value.key_cert_sign) \
        == (True, True, True, True)
    assert (ku.value.content_commitment, ku.value.data_encipherment, ku.value.crl_sign) == (False, False, False)
    eku = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert set(eku) == {ExtendedKeyUsageOID.CLIENT_AUTH, ExtendedKeyUsageOID.SERVER_AUTH}
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == ["localhost"]
    # Signed by its own key, which is the key handed to TLS.
    pub = cert.public_key()
    assert isinstance(pub, ec.EllipticCurvePublicKey) and isinstance(pub.curve, ec.SECP256R1)
    cert.verify_directly_issued_by(cert)
    key = serialization.load_pem_private_key(key_pem, None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    assert key.public_key().public_numbers() == pub.public_numbers()
    # A fresh key and serial every time.
    assert _tls.make_server_cert()[2] != field


def test_server_cert_loads_into_ssl_with_the_hosts(tmp_path) -> None:
    key_pem, cert_pem, _ = _tls.make_server_cert()
    host_cert, _ = client_cert(ec.SECP521R1())
    ctx = context_for(key_pem, cert_pem, host_cert.decode(), str(tmp_path))
    assert ctx.verify_mode == ssl.CERT_REQUIRED
    assert list(tmp_path.iterdir()) == []  # the key files are gone


def rsa_cert() -> bytes:
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM)


@pytest.mark.parametrize("make,can", [
    (lambda: client_cert(ec.SECP256R1())[0], True),
    (lambda: client_cert(ec.SECP384R1())[0], True),
    (lambda: client_cert(ec.SECP521R1())[0], False),  # go-plugin's: the SDK's TLS proxy takes it
    (rsa_cert, True),
], ids=["P-256", "P-384", "P-521", "RSA"])
def test_grpc_can_verify_reads_the_hosts_key(make, can) -> None:
    assert _tls.grpc_can_verify(make().decode()) is can


@pytest.mark.parametrize("pem", [
    "",
    "not a certificate",
    "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    "-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----\n",  # a length past the end
    "-----BEGIN CERTIFICATE-----\n" + base64.b64encode(b"\x30\x84\xff\xff\xff\xff").decode() + "\n-----END CERTIFICATE-----\n",
], ids=["empty", "text", "short", "truncated", "huge length"])
def test_grpc_can_verify_refuses_garbage(pem) -> None:
    assert _tls.grpc_can_verify(pem) is False
