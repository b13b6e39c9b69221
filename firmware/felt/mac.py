"""HMAC-SHA256 (RFC 2104) from hashlib's SHA-256, which MicroPython has in C: the board's
program MAC for a lab (felt.verify) and the board's own key's MACs (felt.boardkey)."""

import hashlib

BLOCK = 64      # SHA-256's block, HMAC's key size


def keyed(key):
    """The inner and outer SHA-256, fed the key padded and masked: feed the message to
    the inner, then the inner's digest to the outer."""
    if len(key) > BLOCK:
        key = hashlib.sha256(key).digest()
    padded = bytearray(BLOCK)
    padded[:len(key)] = key
    ipad, opad = bytearray(BLOCK), bytearray(BLOCK)
    for i in range(BLOCK):
        ipad[i] = padded[i] ^ 0x36
        opad[i] = padded[i] ^ 0x5C
    return hashlib.sha256(ipad), hashlib.sha256(opad)


def digest(key, data):
    """HMAC-SHA256 of the bytes `data` keyed by the bytes `key`."""
    inner, outer = keyed(key)
    inner.update(data)
    outer.update(inner.digest())
    return outer.digest()
