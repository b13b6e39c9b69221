"""host_tools/cli.py, the manners every felt-* tool shares: its parts one by one.  The
tools themselves, run as a user runs them, are tests/host/test_cli_manners.py."""

import io
import os
import pty
import re
import select
import sys

import pytest

from host_tools import cli


def tool(main):
    return cli.command("felt-test")(main)


def a_parser():
    ap = cli.parser("felt-test", "A tool for the tests.\n\nMore.")
    ap.add_argument("--trust", default="keys/felt.pub")
    ap.add_argument("--hands", type=cli.count(1), default=10)
    ap.add_argument("--heap", type=int, default="5")
    ap.add_argument("--fast", action="store_true")
    sub = ap.add_subparsers(dest="cmd")
    p = sub.add_parser("build")
    p.add_argument("--out", default="build/image")
    return ap


def test_parser_has_version_and_the_first_line_of_the_doc(capsys):
    ap = a_parser()
    assert ap.description == "A tool for the tests."
    with pytest.raises(SystemExit) as e:
        ap.parse_args(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("felt-test ") and "firmware" in out


def test_given_names_what_the_command_line_gave_even_a_default_value():
    args = a_parser().parse_args([])
    assert args.given == set()
    assert (args.trust, args.hands, args.heap, args.fast) == ("keys/felt.pub", 10, 5, False)
    args = a_parser().parse_args(["--trust", "keys/felt.pub", "--fast"])
    assert args.given == {"trust", "fast"}
    args = a_parser().parse_args(["--hands", "3", "build", "--out", "build/image"])
    assert args.given == {"hands", "cmd", "out"} and args.out == "build/image"
    assert a_parser().parse_args(["build"]).given == {"cmd"}


def test_a_bad_command_line_is_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        a_parser().parse_args(["--hands", "0"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err == "felt-test: argument --hands: '0': give a whole number of 1 or more " \
                  "(see --help)\n"


@pytest.mark.parametrize("text, least, most, ok", [
    ("1", 1, None, True), ("0", 1, None, False), ("-2", 0, None, False), ("0", 0, None, True),
    ("x", 1, None, False), ("1.5", 1, None, False), ("11", 2, 11, True), ("12", 2, 11, False),
])
def test_count(text, least, most, ok):
    check = cli.count(least, most)
    if ok:
        assert check(text) == int(text)
    else:
        with pytest.raises(Exception, match="give a whole number"):
            check(text)


def test_checked_keeps_the_sentence_of_a_value_error(capsys):
    def size(text):
        raise ValueError("size %r: give bytes" % text)
    ap = cli.parser("felt-test", "")
    ap.add_argument("--heap", type=cli.checked(size))
    with pytest.raises(SystemExit):
        ap.parse_args(["--heap", "x"])
    assert capsys.readouterr().err == "felt-test: argument --heap: size 'x': give bytes " \
                                      "(see --help)\n"


def test_run_a_file_the_user_named_is_one_line(tmp_path, capsys):
    def main(argv):
        open(str(tmp_path / "nope" / "f"), "w")
    assert tool(main)([]) == 1
    assert capsys.readouterr().err == "felt-test: %s: No such file or directory\n" % (
        tmp_path / "nope" / "f")


def test_run_a_users_mistake_is_one_line_and_its_status(capsys):
    def main(argv):
        print("said before")
        raise cli.UserError("no such thing", 3)
    assert tool(main)([]) == 3
    out = capsys.readouterr()
    assert out.err == "felt-test: no such thing\n" and out.out == "said before\n"


def test_run_returns_argparse_exits_and_main_statuses(capsys):
    assert tool(lambda argv: a_parser().parse_args(argv))(["--hands", "-1"]) == 2
    assert tool(lambda argv: a_parser().parse_args(argv) and 0)(["--version"]) == 0
    assert tool(lambda argv: 5)([]) == 5
    assert tool(lambda argv: None)([]) == 0
    capsys.readouterr()


def test_run_a_closed_pipe_is_141_and_ctrl_c_130(capsys):
    def closed(argv):
        raise BrokenPipeError()

    def interrupted(argv):
        raise KeyboardInterrupt()
    assert tool(closed)([]) == cli.SIGPIPE_EXIT == 141
    assert tool(interrupted)([]) == 130
    assert capsys.readouterr().out == ""


def test_run_leaves_an_internal_bug_its_traceback():
    with pytest.raises(ZeroDivisionError):
        tool(lambda argv: 1 // 0)([])


def test_board_file_by_name_or_file(tmp_path):
    assert cli.board_file("pico-11") == cli.BOARDS / "pico-11.json"
    path = str(cli.BOARDS / "feather-rp2040-cp.json")
    assert str(cli.board_file(path)) == path
    with pytest.raises(cli.UserError, match="no board 'nope': give a file or one of "
                                            "feather-rp2040-cp, pico-11"):
        cli.board_file("nope")
    with pytest.raises(cli.UserError, match="no board"):
        cli.board_file(str(tmp_path / "nope.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(cli.UserError, match="not valid JSON"):
        cli.board_file(str(bad))
    bad.write_text('{"name": "x"}')
    with pytest.raises(cli.UserError, match="missing"):
        cli.board_file(str(bad))


def test_out_file_and_out_dir(tmp_path):
    f = tmp_path / "f"
    f.write_text("")
    assert cli.out_file(str(f)) == str(f) and cli.out_file(str(tmp_path / "new")) == str(tmp_path / "new")
    with pytest.raises(Exception, match="is a folder"):
        cli.out_file(str(tmp_path))
    with pytest.raises(Exception, match="no folder"):
        cli.out_file(str(tmp_path / "nope" / "f"))
    assert cli.out_dir(str(tmp_path)) == str(tmp_path)
    assert cli.out_dir(str(tmp_path / "d" / "e")) and (tmp_path / "d" / "e").is_dir()
    with pytest.raises(Exception, match="is a file"):
        cli.out_dir(str(f))
    with pytest.raises(Exception, match="Not a directory"):
        cli.out_dir(str(f / "d"))


def test_colour_follows_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert cli.colour()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not cli.colour()


def test_progress_is_silent_off_a_terminal(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with cli.progress(3, "hands") as step:
        for _ in range(3):
            step()
        step(0, "more")
    assert err.getvalue() == ""


def on_a_terminal(monkeypatch, no_color):
    """What progress() draws on a pseudo-terminal as stderr."""
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    master, slave = pty.openpty()
    err = os.fdopen(slave, "w")
    monkeypatch.setattr(sys, "stderr", err)
    try:
        with cli.progress(2, "hands") as step:
            step()
            step(what="the last hand")
        err.flush()
        drawn = b""
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                break
            drawn += os.read(master, 65536)
    finally:
        err.close()
        os.close(master)
    return drawn.decode(errors="replace")


def test_progress_draws_on_a_terminal_in_colour_unless_no_color(monkeypatch):
    drawn = on_a_terminal(monkeypatch, no_color=False)
    assert "hands" in drawn or "the last hand" in drawn
    assert re.search(r"\x1b\[(3[0-9]|38;)", drawn)           # a colour
    plain = on_a_terminal(monkeypatch, no_color=True)
    assert "hands" in plain or "the last hand" in plain
    assert not re.search(r"\x1b\[(3[0-9]|38;)", plain)
