"""host_tools.micropython: the unix port's command line and the board's file tree."""

import pytest

from host_tools import micropython as M


def test_heap_sizes_read_as_the_unix_port_takes_them():
    assert M.parse_heap("185K") == 185 * 1024
    assert M.parse_heap("2m") == 2 * 1024 * 1024
    assert M.parse_heap("65536") == 65536
    for bad in ("", "K", "1.5K", "-4K", "8K"):
        with pytest.raises(ValueError):
            M.parse_heap(bad)


def test_the_board_tree_holds_bytecode_and_main_as_source(tmp_path):
    n = M.board_tree(tmp_path, fresh=True)
    assert (tmp_path / "main.py").read_text() == (M.FIRMWARE / "main.py").read_text()
    assert (tmp_path / "felt" / "table" / "controller.mpy").read_bytes()[:1] == b"M"
    assert not list(tmp_path.rglob("felt/**/*.py"))
    assert n == len(list((M.FIRMWARE / "felt").rglob("*.py"))) + 1
    assert M.board_tree(tmp_path) == 0      # nothing stale: nothing compiled again


def test_the_command_runs_main_with_the_heap_and_the_tree_on_the_path(tmp_path, monkeypatch):
    fake = tmp_path / "micropython"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MICROPYTHON", str(fake))
    argv, env = M.command(M.TREE / "main.py", ["--port", "/dev/pts/9"], 150 * 1024)
    assert argv == [str(fake), "-X", "heapsize=153600", str(M.TREE / "main.py"),
                    "--port", "/dev/pts/9"]
    assert env["MICROPYPATH"] == ".frozen:" + str(M.TREE)


def test_a_missing_unix_port_says_how_to_get_one(monkeypatch, tmp_path):
    monkeypatch.setenv("MICROPYTHON", str(tmp_path / "nothing"))
    with pytest.raises(M.MicroPythonMissing, match="make micropython"):
        M.binary()
