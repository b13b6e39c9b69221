"""felt.ed25519: Ed25519 verification (RFC 8032) and SHA-512 (FIPS 180-4), on CPython and
inside MicroPython (whose hashlib has no SHA-512, so there the module's own runs).  The
vectors are the published ones: RFC 8032, 7.1, and FIPS 180-4's examples.  Every
verification here runs with each check the VM has (ed25519.CHECKS: Monocypher's in C on
the unix port, which the Makefile builds with it, and the Python one everywhere), and
asserts they give the same answer."""

from felt import ed25519

P = 2 ** 255 - 19
L = 2 ** 252 + 27742317777372353535851937790883648493


def h(text):
    return bytes.fromhex(text)


# RFC 8032, 7.1: (public key, message, signature).
TEST1 = (h("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"), b"",
         h("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
           "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"))
TEST2 = (h("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"), h("72"),
         h("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
           "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"))
TEST3 = (h("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"), h("af82"),
         h("6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
           "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"))
# TEST SHA(abc): the message is SHA-512("abc"), 64 bytes.
TEST_ABC = (h("ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf"),
            h("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
              "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
            h("dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
              "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"))

# FIPS 180-4's examples (the NIST example values): (message, SHA-512).
SHA_ABC = (b"abc", TEST_ABC[1])
SHA_EMPTY = (b"", h("cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                    "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"))
SHA_896 = (b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
           b"ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
           h("8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
             "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"))


class using:
    """felt.ed25519.verify with only `check` behind it."""
    def __init__(self, check):
        self.check = check

    def __enter__(self):
        self.checks = ed25519.CHECKS
        ed25519.CHECKS = (self.check,)

    def __exit__(self, *exc):
        ed25519.CHECKS = self.checks


def verify(key, message, signature):
    """felt.ed25519.verify's answer, the same by each check of the VM's (asserted)."""
    answers = []
    for check in ed25519.CHECKS:
        with using(check):
            answers.append(ed25519.verify(key, message, signature))
    assert answers == [answers[0]] * len(answers), answers
    return answers[0]


def flipped(data, bit):
    """data with one bit inverted (bit 0 is the low bit of the first byte)."""
    b = bytearray(data)
    b[bit // 8] ^= 1 << (bit % 8)
    return bytes(b)


def le(n):
    return n.to_bytes(32, "little")


# ----- SHA-512 ---------------------------------------------------------------------------

def test_sha512_gives_the_fips_180_4_digests():
    for message, digest in (SHA_ABC, SHA_EMPTY, SHA_896):
        assert len(SHA_896[0]) * 8 == 896
        assert ed25519.sha512(message) == digest
        assert ed25519.sha512_pure(message) == digest


def test_sha512_pads_right_at_the_block_boundaries():
    # 111 bytes leave room for the length in one block, 112 need a second; 128 fill it.
    # The pure digest must equal the runtime's (hashlib's where there is one) and a
    # digest of the same bytes given as a head and the rest.
    for n in (0, 1, 111, 112, 127, 128, 129, 239, 240, 255, 256, 300):
        data = bytes([(i * 7 + n) & 255 for i in range(n)])
        d = ed25519.sha512_pure(data)
        assert d == ed25519.sha512(data) and len(d) == 64
        for cut in (1, 32, 64, 127, 128):
            if cut <= n:
                assert ed25519.sha512_pure(data[cut:], data[:cut]) == d


# ----- the curve's constants ---------------------------------------------------------------

def test_the_constants_are_the_rfcs():
    assert ed25519.P == P and ed25519.L == L
    assert ed25519.D * 121666 % P == (-121665) % P                  # d = -121665/121666
    assert ed25519.SQRT_M1 * ed25519.SQRT_M1 % P == P - 1
    x, y = ed25519.BX, ed25519.BY
    assert y * 5 % P == 4 and x % 2 == 0                             # B: y = 4/5, x even
    assert (y * y - x * x - 1 - ed25519.D * x * x % P * y * y) % P == 0   # on the curve


# ----- RFC 8032 test vectors ---------------------------------------------------------------

def test_the_rfc_8032_vectors_verify():
    for key, message, signature in (TEST1, TEST2, TEST3, TEST_ABC):
        assert verify(key, message, signature) is True


def test_buffers_verify_as_bytes_do():
    key, message, signature = TEST3
    assert verify(bytearray(key), memoryview(message), memoryview(bytearray(signature)))


# ----- refusals ----------------------------------------------------------------------------

def test_a_flipped_bit_in_the_message_is_refused():
    key, message, signature = TEST2
    for bit in (0, 3, 7):
        assert not verify(key, flipped(message, bit), signature)
    assert not verify(key, message + b"\x00", signature)   # and a byte more
    assert not verify(key, b"", signature)


def test_a_flipped_bit_in_r_is_refused():
    key, message, signature = TEST1
    for bit in (0, 1, 100, 254, 255):
        assert not verify(key, message, flipped(signature, bit))


def test_a_flipped_bit_in_s_is_refused():
    key, message, signature = TEST1
    for bit in (256, 257, 400, 508, 511):
        assert not verify(key, message, flipped(signature, bit))


def test_a_flipped_bit_in_the_key_is_refused():
    key, message, signature = TEST3
    for bit in (0, 9, 128, 254, 255):
        assert not verify(flipped(key, bit), message, signature)


def test_s_plus_l_is_refused():
    # [S + L]B = [S]B, so the equation holds: only the rule S < L (5.1.7) refuses it.
    for key, message, signature in (TEST1, TEST2, TEST3):
        s = int.from_bytes(signature[32:], "little")
        assert s < L
        assert not verify(key, message, signature[:32] + le(s + L))
    key, message, signature = TEST1
    assert not verify(key, message, signature[:32] + le(L))
    assert not verify(key, message, signature[:32] + b"\xff" * 32)


def test_wrong_lengths_and_types_are_refused():
    key, message, signature = TEST1
    assert not verify(key[:31], message, signature)
    assert not verify(key + b"\x00", message, signature)
    assert not verify(key, message, signature[:63])
    assert not verify(key, message, signature + b"\x00")
    assert not verify(b"", message, b"")
    assert not verify(None, message, signature)
    assert not verify(key, None, signature)
    assert not verify(key, "", signature)
    assert not verify(key.hex(), message, signature)
    assert not verify(key, message, 0)


def test_a_key_that_is_no_point_is_refused():
    # The smallest y whose x^2 = (y^2 - 1)/(d y^2 + 1) is not a square mod p (Euler's
    # criterion): no point has it, so no key encodes it, whatever the sign bit.
    d = ed25519.D
    y = 2
    while True:
        x2 = (y * y - 1) * pow(d * y * y + 1, P - 2, P) % P
        if pow(x2, (P - 1) // 2, P) == P - 1:
            break
        y += 1
    key, message, signature = TEST1
    for sign in (0, 1 << 255):
        assert not verify(le(y | sign), message, signature)
        # No signature can be made to pass here to show it is the decoding that refuses:
        # ask the decoding itself (5.1.3, step 3).
        assert ed25519._decode(le(y | sign)) is None
    assert ed25519._decode(key) is not None


# The neutral point (x = 0, y = 1) as a key: then [S]B = R + [k]A is [S]B = R for any
# message, so a signature R = [0]B (the neutral point again), S = 0 verifies it (RFC 8032
# does not exclude small-order keys).  Issue 21: with it as felt.pub, a tampered
# manifest verified.  Small-order keys and R are refused now.
NEUTRAL = le(1)
NEUTRAL_SIG = le(1) + le(0)
# The RFC's TEST 1 secret key (7.1), to make signatures the RFC would accept.
TEST1_SECRET = h("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")


def small_order_keys():
    """Points of order 1, 2 and 4, canonically encoded: the neutral point (0, 1),
    (0, -1), and (+-sqrt(-1), 0)."""
    return (NEUTRAL, le(P - 1), le(0), le(1 << 255))


def times(n, point):
    """[n] of the affine point (x, y), affine, by double-and-add."""
    x, y = point
    q = ed25519._cached(x, y, 1, x * y % P)
    X, Y, Z, T = 0, 1, 1, 0
    for i in range(255, -1, -1):   # n < 2^256
        X, Y, Z, T = ed25519._double(X, Y, Z)
        if n >> i & 1:
            X, Y, Z, T = ed25519._add(X, Y, Z, T, q)
    zi = pow(Z, P - 2, P)
    return X * zi % P, Y * zi % P


def encoded(point):
    return le(point[1] | (point[0] & 1) << 255)


def test_the_small_order_table_is_every_point_of_order_dividing_8():
    # [L] of a point of the curve leaves its part of small order; the first y whose
    # point's part is of order 8 gives, by its multiples, all 8 such points.
    y = 2
    while True:
        point = ed25519._decode(le(y))
        if point is not None:
            t = times(L, point)
            if times(4, t) != (0, 1):
                break
        y += 1
    assert times(8, t) == (0, 1)
    points = [times(n, t) for n in range(8)]
    assert sorted(encoded(p) for p in points) == sorted(ed25519.SMALL_ORDER)
    assert len(set(ed25519.SMALL_ORDER)) == 8
    for key in small_order_keys():
        assert key in ed25519.SMALL_ORDER


def test_a_small_order_key_is_refused_with_the_signature_that_would_verify_anything():
    for key in ed25519.SMALL_ORDER:
        assert not verify(key, b"a tampered manifest", NEUTRAL_SIG)
        for sig in ed25519.SMALL_ORDER:
            assert not verify(key, b"a tampered manifest", sig + le(0))
    assert TEST1[0] not in ed25519.SMALL_ORDER


def test_a_signature_whose_r_is_of_small_order_is_refused():
    # With the secret a: R = the neutral point, S = k a mod L gives [S]B - [k]A = R, a
    # signature RFC 8032's check accepts; Felt refuses R of small order.
    digest = ed25519.sha512(TEST1_SECRET)
    a = int.from_bytes(digest[:32], "little")
    a = (a & ((1 << 254) - 8)) | (1 << 254)           # 5.1.5, the clamping
    message = b"signed with a small-order R"
    k = int.from_bytes(ed25519.sha512(NEUTRAL + TEST1[0] + message), "little") % L
    signature = NEUTRAL + le(k * a % L)
    assert not verify(TEST1[0], message, signature)
    with small_order_allowed():                       # it is that rule that refuses
        assert verify(TEST1[0], message, signature)


class small_order_allowed:
    """The small-order rule switched off: each rule of the encoding below is then the one
    thing that refuses its case."""
    def __enter__(self):
        self.table = ed25519.SMALL_ORDER
        ed25519.SMALL_ORDER = ()

    def __exit__(self, *exc):
        ed25519.SMALL_ORDER = self.table


def test_the_neutral_point_written_canonically_verifies_without_the_small_order_rule():
    with small_order_allowed():
        assert verify(NEUTRAL, b"any message", NEUTRAL_SIG)


def test_a_key_with_y_at_or_above_p_is_refused():
    with small_order_allowed():
        assert not verify(le(P + 1), b"any message", NEUTRAL_SIG)


def test_an_r_with_y_at_or_above_p_is_refused():
    with small_order_allowed():
        assert not verify(NEUTRAL, b"any message", le(P + 1) + le(0))


def test_x_zero_with_the_sign_bit_set_is_refused():
    # 5.1.3, step 4: x = 0 has no negative, so its sign bit must be clear.
    with small_order_allowed():
        assert not verify(le(1 | 1 << 255), b"any message", NEUTRAL_SIG)
        assert not verify(NEUTRAL, b"any message", le(1 | 1 << 255) + le(0))

def plus(p, q):
    """The affine points p + q."""
    X, Y, Z, T = ed25519._add(p[0], p[1], 1, p[0] * p[1] % P,
                              ed25519._cached(q[0], q[1], 1, q[0] * q[1] % P))
    zi = pow(Z, P - 2, P)
    return X * zi % P, Y * zi % P


def test_the_check_is_the_cofactored_equation_on_every_check():
    # R = [r]B + T, T of order 8, S = r + k a: [S]B - [k]A - R = -T, not the neutral point,
    # so the cofactorless check ([S]B = R + [k]A) refuses it, and the cofactored one (8
    # times that) takes it, as RFC 8032 allows and Monocypher does.  Only the key's owner
    # can make such a signature: it is another form of one, not a forgery.
    digest = ed25519.sha512(TEST1_SECRET)
    a = int.from_bytes(digest[:32], "little")
    a = (a & ((1 << 254) - 8)) | (1 << 254)           # 5.1.5, the clamping
    base = (ed25519.BX, ed25519.BY)
    assert encoded(times(a, base)) == TEST1[0]
    t = ed25519._decode(ed25519.SMALL_ORDER[4])
    assert times(4, t) != (0, 1)                      # of order 8
    message = b"a signature a torsion point away"
    r = 12345678901234567890
    big_r = encoded(plus(times(r, base), t))
    assert big_r not in ed25519.SMALL_ORDER
    k = int.from_bytes(ed25519.sha512(big_r + TEST1[0] + message), "little") % L
    assert verify(TEST1[0], message, big_r + le((r + k * a) % L))
    assert not verify(TEST1[0], message + b"!", big_r + le((r + k * a) % L))


def test_every_check_gives_the_same_answer_for_many_changed_signatures():
    # Bits flipped in every part of each vector, and bytes set: `verify` asserts the
    # checks agree; the vectors themselves pass, everything changed fails.
    state = 1
    for key, message, signature in (TEST1, TEST2, TEST3, TEST_ABC):
        assert verify(key, message, signature)
        for _ in range(12):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            bit = state % 512
            assert not verify(key, message, flipped(signature, bit))
            assert not verify(flipped(key, bit % 256), message, signature)
