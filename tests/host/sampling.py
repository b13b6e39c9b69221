"""How many examples a property or comparison test draws: a fifth in make test, the
whole count in make check, which runs the tests marked `sampled` again with FELT_LONG=1
(issue 20, item 6: the same tests in both, the long samples in make check)."""

import os

import pytest

LONG = os.environ.get("FELT_LONG") == "1"
sampled = pytest.mark.sampled


def examples(n):
    """`n` in make check; a fifth of it, at least 20, in make test."""
    return n if LONG else max(20, n // 5)
