"""felt.ed25519 (the board's verifier) against the `cryptography` package (felt-flash's
signer, OpenSSL's Ed25519) on CPython: what one signs the other accepts, and a single
flipped bit anywhere is refused by both.  The module's own SHA-512, the one a board runs,
is checked against hashlib's."""

import hashlib
import os
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings, strategies as st

try:
    from felt import ed25519
except ImportError:  # run without PYTHONPATH=firmware
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "firmware"))
    from felt import ed25519

seeds = st.binary(min_size=32, max_size=32)
messages = st.binary(min_size=0, max_size=2000)


def signed(seed, message):
    """(public key, signature) of message by the key `seed`, as felt-flash makes them."""
    private = Ed25519PrivateKey.from_private_bytes(seed)
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return public, private.sign(message)


def openssl_verdict(public, message, signature):
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def flipped(data, bit):
    b = bytearray(data)
    b[bit // 8] ^= 1 << (bit % 8)
    return bytes(b)


@settings(max_examples=40, deadline=None)
@given(seeds, messages)
def test_what_cryptography_signs_verifies(seed, message):
    public, signature = signed(seed, message)
    assert ed25519.verify(public, message, signature) is True
    # The pure SHA-512 path, as on a board, gives the same verdict.
    saved = ed25519._hashlib_sha512
    ed25519._hashlib_sha512 = None
    try:
        assert ed25519.verify(public, message, signature) is True
    finally:
        ed25519._hashlib_sha512 = saved


@settings(max_examples=60, deadline=None)
@given(seeds, messages, st.sampled_from(("message", "signature", "key")), st.integers(0, 10 ** 6))
def test_one_flipped_bit_is_refused_by_both(seed, message, where, n):
    public, signature = signed(seed, message)
    if where == "message" and not message:
        message, where = message + b"\x00", "appended"
    elif where == "message":
        message = flipped(message, n % (8 * len(message)))
    elif where == "signature":
        signature = flipped(signature, n % 512)
    else:
        public = flipped(public, n % 256)
    assert ed25519.verify(public, message, signature) is False
    assert openssl_verdict(public, message, signature) is False


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), messages, st.binary(min_size=64, max_size=64))
def test_random_keys_and_signatures_agree_with_openssl(public, message, signature):
    # Random bytes: almost never a signature; where S < L and the key is canonical the
    # two must still agree (OpenSSL also takes keys with y >= p, RFC 8032 does not),
    # but for a key or an R of small order, which Felt refuses and OpenSSL takes.
    theirs = openssl_verdict(public, message, signature)
    if small_order(public) or small_order(signature[:32]):
        theirs = False
    assert ed25519.verify(public, message, signature) == theirs


def small_order(encoded):
    """Whether 32 bytes encode a point of small order (felt.ed25519's own table)."""
    return encoded in ed25519.SMALL_ORDER


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=0, max_size=2000), st.integers(0, 128))
def test_the_pure_sha512_is_hashlibs(data, cut):
    assert ed25519.sha512_pure(data) == hashlib.sha512(data).digest()
    # With a head (verify's R || A), as one stream.
    head, rest = data[:cut], data[cut:]
    assert ed25519.sha512_pure(rest, head) == hashlib.sha512(data).digest()
