"""For pytest only (the MicroPython runner reads no conftest): the tests a firmware test
module names in SAMPLED take a sample in make test (firmware_helpers.every) and the
whole in make check, which runs the tests marked `sampled` again with FELT_LONG=1."""

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if item.originalname in getattr(item.module, "SAMPLED", ()):
            item.add_marker(pytest.mark.sampled)
