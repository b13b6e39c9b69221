"""How much of a property or comparison test make test runs (issue 20, item 6): make
test draws a sample, make check the whole (the same tests in both).

- Hypothesis tests marked `sampled` draw `examples(n)`: a fifth of n in make test, all n
  in make check, which runs them again with FELT_LONG=1.
- Parametrized tests run `first(values, k)`: the first k values in make test, the rest
  marked slow, for make check."""

import os

import pytest

LONG = os.environ.get("FELT_LONG") == "1"
sampled = pytest.mark.sampled


def examples(n):
    """`n` in make check; a fifth of it, at least 20, in make test."""
    return n if LONG else max(20, n // 5)


def first(values, k):
    """`values` for pytest.mark.parametrize, those after the first `k` marked slow (a
    tuple is one case of several arguments)."""
    return [v if i < k else pytest.param(*(v if isinstance(v, tuple) else (v,)),
                                         marks=pytest.mark.slow)
            for i, v in enumerate(values)]
