"""felt.mac is HMAC-SHA256 (RFC 2104), checked on RFC 4231's test vectors: the board's
program MAC for a lab (felt.verify) and its own key's MACs (felt.boardkey)."""

import binascii

from felt import mac

# (key, data, HMAC-SHA256) from RFC 4231, section 4: test cases 1, 2 and 6 (a key longer
# than SHA-256's block, hashed first).
CASES = (
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
)


def test_the_mac_is_rfc_4231s_hmac_sha256():
    for key, data, want in CASES:
        assert binascii.hexlify(mac.digest(key, data)).decode() == want
