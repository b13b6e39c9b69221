"""Felt host tools: the emulator, flashing and benchmarks."""
