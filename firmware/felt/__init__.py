"""Felt: the controller firmware of an electronic poker table."""

# The one place the version is written: the board's hello, journal stamps, hand
# histories and images say FIRMWARE; pyproject.toml reads VERSION (setuptools' attr).
VERSION = "0.1.0"
FIRMWARE = "felt " + VERSION
