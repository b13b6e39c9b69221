"""felt-flash lays out the board's filesystem: bytecode for MicroPython, source for
CircuitPython, main.py and the checked board definition."""

import json

import pytest

from host_tools import flash


def test_micropython_board_gets_bytecode_main_and_board_json(tmp_path):
    out = tmp_path / "fs"
    flash.build("pico-11", out)
    sources = sorted(p.relative_to(flash.FIRMWARE).with_suffix(".mpy")
                     for p in (flash.FIRMWARE / "felt").rglob("*.py"))
    built = sorted(p.relative_to(out) for p in out.rglob("*.mpy"))
    assert built == sources
    assert all((out / p).read_bytes()[:1] == b"M" for p in built)   # the .mpy header
    assert (out / "main.py").read_text() == (flash.FIRMWARE / "main.py").read_text()
    assert json.loads((out / "board.json").read_text())["name"] == "pico-11"


def test_circuitpython_board_gets_source(tmp_path):
    out = tmp_path / "fs"
    flash.build("feather-rp2040-cp", out)
    assert not list(out.rglob("*.mpy"))
    assert (out / "felt" / "poker" / "round.py").exists()


def test_unknown_board_is_refused_with_the_known_names(tmp_path):
    with pytest.raises(SystemExit, match="known: .*pico-11"):
        flash.build("no-such-board", tmp_path / "fs")


def test_commands_copy_everything_then_soft_reset(tmp_path):
    out = tmp_path / "fs"
    flash.build("pico-11", out)
    (cmd,) = flash.mpremote_commands("/dev/ttyACM0", out)
    assert cmd[1:3] == ["connect", "/dev/ttyACM0"] and cmd[-2:] == ["+", "soft-reset"]
    assert str(out / "main.py") in cmd


def test_a_new_table_removes_the_journal_before_the_reset(tmp_path, capsys):
    # The journal makes a board resume after a power cut or a re-flash
    # (felt.table.journal); --new-table forgets it, and its archives.
    out = tmp_path / "fs"
    flash.build("pico-11", out)
    (cmd,) = flash.mpremote_commands("/dev/ttyACM0", out, "/journal.jsonl")
    at = cmd.index("exec")
    assert cmd[at - 1] == "+" and cmd[-2:] == ["+", "soft-reset"]
    code = cmd[at + 1]
    assert "'/journal.jsonl'" in code and "'/journal.jsonl.1'" in code
    # Its archives too, the oldest first, the journal last (docs/journal.md).
    assert code.index("'/journal.jsonl.10'") < code.index("'/journal.jsonl.1'") < \
        code.index("'/journal.jsonl'")
    compile(code, "exec", "exec")
    assert flash.main(["--board", "pico-11", "--out", str(out), "--dry-run",
                       "--new-table"]) == 0
    assert "os.remove" in capsys.readouterr().out
    (plain,) = flash.mpremote_commands("/dev/ttyACM0", out)
    assert "exec" not in plain
