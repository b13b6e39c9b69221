"""Ed25519 signature verification (RFC 8032, 5.1.7), for what a board must trust only
when it is signed: felt-flash signs with the `cryptography` package on the PC, the
board checks here.  Verification only: a board holds public keys, never a private one.

    verify(public_key, message, signature)   True or False, never an exception for bad
                                             input (only MemoryError gets through)
    sha512(data)                             the 64-byte SHA-512 digest (FIPS 180-4)
    CHECKS                                   the checks this VM has; verify uses the first

verify refuses, before any arithmetic, what no signer makes: a key or an R that is not a
point's one encoding (y >= p, or x = 0 with the sign bit set: 5.1.3), a key or an R of
small order (8 times it is the neutral point: with the neutral point as the key, (R, S) =
(neutral, 0) would verify any message), and S >= L (5.1.7, step 1: one form per
signature).  Then the check is the cofactored equation, [8]([S]B - [k]A - R) = neutral,
with k = SHA-512(R || A || M) mod L, which RFC 8032 allows and Monocypher uses; both
checks below compute exactly it, so they accept exactly the same signatures:

    check_c     Monocypher 4.0.3's crypto_ed25519_check, compiled into the board's image
                and the unix port (cmodules/monocypher): 0.16 ms to check_pure's 20 on
                the unix port (tests/mp/bench_ed25519.py)
    check_pure  plain Python, for CPython and any MicroPython built without the module

check_pure: the field elements are ints reduced mod p (MicroPython and CPython both have
arbitrary-precision ints and 3-argument pow), the points are in extended twisted-Edwards
coordinates (X:Y:Z:T, x = X/Z, y = Y/Z, x*y = T/Z: no inversion), and [S]B - [k]A is one
double-and-add over both scalars at once (Shamir's trick: 253 doublings for the two).
MicroPython's hashlib has no SHA-512, so this module carries one (sha512_pure), used when
hashlib.sha512 is missing.
"""

import struct

try:
    from hashlib import sha512 as _hashlib_sha512
except ImportError:  # MicroPython: hashlib has sha256 only
    _hashlib_sha512 = None

try:
    from monocypher import ed25519_check as _monocypher_check   # cmodules/monocypher
except ImportError:  # CPython, or a MicroPython built without it
    _monocypher_check = None

# ----- SHA-512 (FIPS 180-4, 6.4) ----------------------------------------------------

_M64 = 0xFFFFFFFFFFFFFFFF

# The first 64 bits of the fractional parts of the cube roots of the first 80 primes
# (FIPS 180-4, 4.2.3), and of the square roots of the first 8 (5.3.5).
_K = (
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
)
_H0 = (
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
)


def _block(h, w, buf, off):
    """Fold the 128-byte block at buf[off:] into the state h; w is 80 words of room."""
    M = _M64
    K = _K
    w[0:16] = struct.unpack_from(">16Q", buf, off)
    for t in range(16, 80):
        # sigma0 and sigma1 (4.13): each rotation is a shift of the word written twice
        # side by side, so three rotations cost one copy and three shifts; the bits the
        # copy leaves above bit 63 are cut by the one mask at the end.
        x = w[t - 15]
        xx = x | x << 64
        y = w[t - 2]
        yy = y | y << 64
        w[t] = (w[t - 16] + w[t - 7] + ((xx >> 1) ^ (xx >> 8) ^ (x >> 7))
                + ((yy >> 19) ^ (yy >> 61) ^ (y >> 6))) & M
    a, b, c, d, e, f, g, hh = h
    for t in range(80):
        # The high bits of Sigma0/Sigma1 and of the sums are junk only above bit 63,
        # and carries only go up: one mask per new word is enough.
        ee = e | e << 64
        t1 = hh + ((ee >> 14) ^ (ee >> 18) ^ (ee >> 41)) + (g ^ (e & (f ^ g))) + K[t] + w[t]
        aa = a | a << 64
        t2 = ((aa >> 28) ^ (aa >> 34) ^ (aa >> 39)) + ((a & b) | (c & (a | b)))
        # One name at a time: MicroPython builds a tuple for a wider swap.
        hh = g
        g = f
        f = e
        e = (d + t1) & M
        d = c
        c = b
        b = a
        a = (t1 + t2) & M
    h[0] = (h[0] + a) & M
    h[1] = (h[1] + b) & M
    h[2] = (h[2] + c) & M
    h[3] = (h[3] + d) & M
    h[4] = (h[4] + e) & M
    h[5] = (h[5] + f) & M
    h[6] = (h[6] + g) & M
    h[7] = (h[7] + hh) & M


def sha512_pure(data, head=b""):
    """SHA-512 of head + data in Python (FIPS 180-4), head at most 128 bytes.  The
    head lets verify hash R || A || M without copying the message into one buffer."""
    h = list(_H0)
    w = [0] * 80
    size = len(head) + len(data)
    pos = 0
    tail = b""
    if head:
        pos = min(128 - len(head), len(data))
        tail = head + bytes(data[:pos])
        if len(tail) == 128:
            _block(h, w, tail, 0)
            tail = b""
    end = len(data) - (len(data) - pos) % 128
    for off in range(pos, end, 128):
        _block(h, w, data, off)   # whole blocks straight from the caller's buffer
    # Padding (5.1.2): a 1 bit, zeros, and the length in bits as 128 bits.
    tail += bytes(data[end:]) + b"\x80"
    tail += bytes((112 - len(tail)) % 128) + (size * 8).to_bytes(16, "big")
    for off in range(0, len(tail), 128):
        _block(h, w, tail, off)
    return struct.pack(">8Q", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])


def sha512(data):
    """The SHA-512 digest of data (64 bytes): hashlib's where there is one."""
    if _hashlib_sha512 is not None:
        return _hashlib_sha512(data).digest()
    return sha512_pure(data)


def _challenge(r, a, message):
    """SHA-512(R || A || M) (5.1.7, step 2), without joining M to anything."""
    if _hashlib_sha512 is not None:
        hs = _hashlib_sha512(r)
        hs.update(a)
        hs.update(message)
        return hs.digest()
    return sha512_pure(message, r + a)


# ----- edwards25519 (RFC 8032, 5.1) ---------------------------------------------------

P = 2 ** 255 - 19                                         # the field's prime
L = 2 ** 252 + 27742317777372353535851937790883648493     # the order of B
# d = -121665/121666 mod p, and sqrt(-1) = 2^((p-1)/4) mod p: written out, as pow()
# at import would cost a board two modular exponentiations each boot.
D = 0x52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3
SQRT_M1 = 0x2b8324804fc1df0b2b4d00993dfbd7a72f431806ad2fe478c4ee1b274a0ea0b0
# The base point B: y = 4/5, x even (5.1).
BX = 0x216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a
BY = 0x6666666666666666666666666666666666666666666666666666666666666658

_D2 = 2 * D % P
_Y_MASK = 2 ** 255 - 1
_SQRT_EXP = (P - 5) // 8


def _cached(X, Y, Z, T):
    """A point as an addend: (Y-X, Y+X, 2dT, 2Z), the products every addition of it
    would otherwise redo."""
    return ((Y - X) % P, (Y + X) % P, T * _D2 % P, 2 * Z % P)


_B = _cached(BX, BY, 1, BX * BY % P)


def _add(X1, Y1, Z1, T1, q):
    """(X1:Y1:Z1:T1) + q, q _cached (5.1.4, with a = -1; complete: no special cases)."""
    a = (Y1 - X1) * q[0] % P
    b = (Y1 + X1) * q[1] % P
    c = T1 * q[2] % P
    d = Z1 * q[3] % P
    e = b - a
    f = d - c
    g = d + c
    h = b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def _double(X1, Y1, Z1):
    """2 (X1:Y1:Z1:-) (5.1.4); doubling does not read T."""
    a = X1 * X1 % P
    b = Y1 * Y1 % P
    c = 2 * Z1 * Z1 % P
    h = a + b
    s = X1 + Y1
    e = h - s * s % P
    g = a - b
    f = c + g
    return e * f % P, g * h % P, f * g % P, e * h % P


def _decode(enc):
    """The affine point (x, y) that 32 bytes encode (5.1.3), or None if they do not
    encode one: y >= p, x^2 not a square, or x = 0 with the sign bit set."""
    y = int.from_bytes(enc, "little")
    sign = y >> 255
    y &= _Y_MASK
    if y >= P:
        return None
    yy = y * y % P
    u = (yy - 1) % P
    v = (D * yy + 1) % P
    # x = (u/v)^((p+3)/8) = u v^3 (u v^7)^((p-5)/8): one exponentiation, no inversion.
    v3 = v * v % P * v % P
    x = u * v3 % P * pow(u * v3 % P * v3 % P * v % P, _SQRT_EXP, P) % P
    vxx = v * x % P * x % P
    if vxx != u:
        if vxx != P - u:
            return None
        x = x * SQRT_M1 % P
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return x, y


# The 8 points of small order, each in its one encoding: order 1 (the neutral point),
# 2, 4 (two) and 8 (four).  tests/firmware/test_ed25519.py derives them.
SMALL_ORDER = (
    b"\x01" + bytes(31),
    b"\xec" + b"\xff" * 30 + b"\x7f",
    bytes(32),
    bytes(31) + b"\x80",
    b"\x26\xe8\x95\x8f\xc2\xb2\x27\xb0\x45\xc3\xf4\x89\xf2\xef\x98\xf0"
    b"\xd5\xdf\xac\x05\xd3\xc6\x33\x39\xb1\x38\x02\x88\x6d\x53\xfc\x05",
    b"\x26\xe8\x95\x8f\xc2\xb2\x27\xb0\x45\xc3\xf4\x89\xf2\xef\x98\xf0"
    b"\xd5\xdf\xac\x05\xd3\xc6\x33\x39\xb1\x38\x02\x88\x6d\x53\xfc\x85",
    b"\xc7\x17\x6a\x70\x3d\x4d\xd8\x4f\xba\x3c\x0b\x76\x0d\x10\x67\x0f"
    b"\x2a\x20\x53\xfa\x2c\x39\xcc\xc6\x4e\xc7\xfd\x77\x92\xac\x03\x7a",
    b"\xc7\x17\x6a\x70\x3d\x4d\xd8\x4f\xba\x3c\x0b\x76\x0d\x10\x67\x0f"
    b"\x2a\x20\x53\xfa\x2c\x39\xcc\xc6\x4e\xc7\xfd\x77\x92\xac\x03\xfa",
)


def _one_encoding(enc):
    """Whether 32 bytes can be a point's one encoding, as far as the bytes tell: y < p,
    and no sign bit on x = 0, which only y = 1 and y = p - 1 have (5.1.3)."""
    y = int.from_bytes(enc, "little")
    sign = y >> 255
    y &= _Y_MASK
    return y < P and not (sign and (y == 1 or y == P - 1))


def _bytes_like(v):
    return isinstance(v, (bytes, bytearray, memoryview))


def verify(public_key, message, signature):
    """True if signature (64 bytes) is public_key's (32 bytes) Ed25519 signature of
    message (bytes); False for any other input, whatever its type or length."""
    if not (_bytes_like(public_key) and _bytes_like(message) and _bytes_like(signature)):
        return False
    if len(public_key) != 32 or len(signature) != 64:
        return False
    public_key = bytes(public_key)
    signature = bytes(signature)
    r = signature[:32]
    for enc in (public_key, r):
        if not _one_encoding(enc) or enc in SMALL_ORDER:
            return False
    if int.from_bytes(signature[32:], "little") >= L:
        return False
    return CHECKS[0](public_key, message, signature)


def check_c(public_key, message, signature):
    """Monocypher's check of [8]([S]B - [k]A - R) = neutral (verify's inputs only)."""
    return _monocypher_check(signature, public_key, message)


def check_pure(public_key, message, signature):
    """The same check in Python (verify's inputs only: S < L, A and R in one encoding)."""
    a = _decode(public_key)
    r = _decode(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    k = int.from_bytes(_challenge(signature[:32], public_key, message), "little") % L
    # [S]B + [k](-A): the addends B, -A and B - A, then the bits of S and k together,
    # top down: double, then add the addend the two bits pick.
    x = P - a[0]
    y = a[1]
    neg_a = _cached(x, y, 1, x * y % P)
    both = _cached(*_add(BX, BY, 1, BX * BY % P, neg_a))
    addends = (None, _B, neg_a, both)
    X, Y, Z, T = 0, 1, 1, 0   # the neutral point
    for i in range(252, -1, -1):   # S < L and k < L are below 2^253
        X, Y, Z, T = _double(X, Y, Z)
        j = (s >> i & 1) | (k >> i & 1) << 1
        if j:
            X, Y, Z, T = _add(X, Y, Z, T, addends[j])
    x = P - r[0]
    X, Y, Z, T = _add(X, Y, Z, T, _cached(x, r[1], 1, x * r[1] % P))   # - R
    for _ in range(3):
        X, Y, Z, T = _double(X, Y, Z)
    return X % P == 0 and (Y - Z) % P == 0


CHECKS = (check_c, check_pure) if _monocypher_check is not None else (check_pure,)
