"""The emulated Pico as the host tools start it (host_tools.pico.process, through
felt-emulator --runtime pico): what the harness cannot run is said in one line, with a
non-zero exit, before any play and never as a wait."""

import json

import pytest

from host_tools.emulator import cli
from host_tools.pico import bridge

try:
    bridge.check_ready()
except bridge.PicoMissing as e:    # make test builds the image and installs the harness
    pytest.skip(str(e), allow_module_level=True)

BOARD = bridge.REPO / "hardware" / "boards" / "pico-11.json"


def emulate(capsys, *args):
    code = cli.main(["--runtime", "pico", "--hands", "1", "--players", "3"] + list(args))
    return code, capsys.readouterr()


def test_a_board_whose_pins_the_harness_cannot_wire_is_one_line(tmp_path, capsys):
    board = json.loads(BOARD.read_text())
    board["card_reader"].update(tx=6, rx=7)       # GP6/GP7 are I2C1's, not UART1's
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    code, out = emulate(capsys, "--board", str(path))
    assert code != 0 and out.out == ""
    assert out.err.splitlines() == [
        "felt-emulator: the emulated Pico: board pico-11: card reader pins GP6/GP7 are not "
        "UART1 TX/RX"]


@pytest.mark.parametrize("size", [5000, 5120])    # within a block; whole blocks, too few
def test_a_truncated_image_is_one_line(tmp_path, capsys, monkeypatch, size):
    uf2 = tmp_path / "firmware.uf2"
    uf2.write_bytes(bridge.UF2.read_bytes()[:size])
    monkeypatch.setattr(bridge, "UF2", uf2)
    code, out = emulate(capsys)
    assert code != 0 and out.out == ""
    [line] = out.err.splitlines()
    assert line.startswith("felt-emulator: ") and "truncated" in line, line
