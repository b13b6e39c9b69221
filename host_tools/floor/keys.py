"""The floor's own certificate authority (with `cryptography`): a CA made once, and the
certificate the broker and the floor's page show, signed by it, for every name and
address a table or a supervisor reaches them by.  A table trusts the CA alone, so a
machine on the casino's network cannot pose as the broker.  Private keys are written
readable by their owner only."""

import datetime
import ipaddress

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from host_tools.cli import write_private

CA_YEARS = 20
SERVER_YEARS = 5


def _key():
    return ec.generate_private_key(ec.SECP256R1())


def _name(common):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Felt floor"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _builder(subject, issuer, public_key, years):
    now = datetime.datetime.now(datetime.timezone.utc)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
            .public_key(public_key).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=365 * years)))


def _pem_key(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def make_ca(key_path, cert_path):
    """A new CA: its key and self-signed certificate."""
    key = _key()
    name = _name("Felt floor CA")
    cert = (_builder(name, name, key.public_key(), CA_YEARS)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=False, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .sign(key, hashes.SHA256()))
    write_private(key_path, _pem_key(key))
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))


def make_server(ca_key_path, ca_cert_path, hosts, key_path, cert_path):
    """A server certificate signed by the CA, valid for each of `hosts` (names or IP
    addresses)."""
    with open(ca_key_path, "rb") as f:
        ca_key = serialization.load_pem_private_key(f.read(), None)
    with open(ca_cert_path, "rb") as f:
        ca = x509.load_pem_x509_certificate(f.read())
    names = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    key = _key()
    cert = (_builder(_name(hosts[0]), ca.subject, key.public_key(), SERVER_YEARS)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    write_private(key_path, _pem_key(key))
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
