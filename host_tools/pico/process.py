"""The emulated Pico as the host tools start a firmware: `PicoProcess` has the parts of
`host_tools.process.FirmwareProcess` they use (`link`, `master`, `proc`,
`power_cut`, `reboot`, `close`, `stderr`), so felt-emulator, felt-scenario, the view and
felt-emulator --serve drive a Pico unchanged (`--runtime pico`).

The chip resets itself (its watchdog, machine.reset()) without the link noticing, as a
board does: only the harness ending ends the link.  A power cut keeps the flash, so the
table resumes from the journal it keeps there.
"""

import os
import pty
import shutil
import subprocess
import tempfile
import threading
import tty

from host_tools import cli, images, signing
from host_tools.link import HostLink, LinkError
from host_tools.pico import bridge, filesystem


class PicoProcess:
    runtime = "pico"

    def __init__(self, board_path, journal=None, seed=0, measure=False, plant=None,
                 boot_uf2=None, usb=False, image=None):
        """`journal`: where the table's journal is copied from the flash when it closes
        (the board keeps its own, on its filesystem).  `measure`: the bridge keeps the
        chip's moments in `timeline` (Bridge, felt-bench).  `plant`: files ({name:
        bytes}; None: removed) put on its filesystem beside the image, as an attacker at
        the USB port would (filesystem.add).  `boot_uf2`: the firmware the chip runs, when not the one
        its image was signed for (as BOOTSEL would write another).  `usb`: a PC is
        plugged into its USB port (Bridge.type_usb, Bridge.usb_out), at a cost in speed.
        `image`: the folder of files felt-flash pico wrote, flashed as BOOTSEL would
        (its firmware.uf2 and filesystem.img, with the keys in it); without it the Pico
        runs `make pico`'s firmware with a filesystem signed with keys of its own.
        `board_key`: the board's own key, as its filesystem holds it, planted or not
        (felt.boardkey);
        `technician`: the host_tools.tech.Technician of this run's keys, where it made them."""
        from felt.board import load
        bridge.check_ready()
        self.board_path = str(board_path)
        self.board = load(self.board_path)
        self.journal = journal
        self.seed = seed
        self.timeline = [] if measure else None
        self._dir = tempfile.mkdtemp(prefix="felt-pico-")
        self.tech_key = self.tech_key_file = self.owner_key = None
        self.technician = self.board_key_file = None
        if image is None:
            # A Pico runs only a signed image: one signed with a key of this session's
            # (the owner's: it signs `service` too); its technician's commands are
            # signed with another (Session's tech_key).
            image = os.path.join(self._dir, "image")
            key, _ = signing.keygen(os.path.join(self._dir, "felt"))
            self.owner_key = signing.load_key(str(key))
            tech_key, tech_pub = signing.keygen(os.path.join(self._dir, "tech"))
            self.tech_key = signing.load_key(str(tech_key))
            self.tech_key_file = str(tech_key)    # for felt-console --key, while this runs
            self.board_key_file = os.path.join(self._dir, "board.key")
            images.pico(self.board_path, image, str(key), firmware=str(bridge.UF2),
                        tech=str(tech_pub), board_key_path=self.board_key_file)
        self.image = image      # the files it was flashed with (felt-flash verify --image)
        # The harness reads the filesystem from here; a copy, as planting changes it.
        self.fs_image = os.path.join(self._dir, "filesystem.img")
        shutil.copyfile(os.path.join(image, "filesystem.img"), self.fs_image)
        self.flash_out = os.path.join(self._dir, "flash.bin")   # the flash as it is at quit
        if plant:
            filesystem.add(self.fs_image, plant)
        self.board_key = self._own_key()        # a key planted in place of its own too
        if self.tech_key is not None:
            from host_tools import tech
            self.technician = tech.Technician(self.tech_key, self.board_key)
        self.uf2 = str(boot_uf2 or os.path.join(image, "firmware.uf2"))
        self.usb = usb
        self._boot()

    def _own_key(self):
        """The board's own key as its filesystem holds it (felt.boardkey), or None."""
        from felt import boardkey
        if not self.board["journal"]:
            return None
        with open(self.fs_image, "rb") as f:
            text = filesystem.read(f.read(), boardkey.path(self.board["journal"]))
        return bytes.fromhex(text.decode().strip()) if text else None

    def _boot(self):
        master, slave = pty.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        self.proc = subprocess.Popen(
            ["node", str(bridge.HARNESS), "--uf2", self.uf2, "--fs", self.fs_image,
             "--board", self.board_path, "--seed", str(self.seed),
             "--flash-out", self.flash_out],
            env=dict(os.environ, PICO_USB="1") if self.usb else None,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.bridge = bridge.Bridge(self.board, self.proc, slave, self.timeline)
        self._thread = threading.Thread(target=self.bridge.run, daemon=True)
        self._thread.start()
        self.master = master
        self._new_link()
        # The harness checks its files and the board's pins before the chip runs: a
        # bad one is said now, in a line, not as a link that never answers.
        if not self.bridge.started.wait(bridge.LINK_TIMEOUT_S) or self.bridge.error:
            why = self.bridge.error or "the emulated Pico did not start"
            self.close()
            raise cli.UserError(why)

    def _new_link(self):
        self.link = HostLink(self.master, bridge.LINK_TIMEOUT_S)
        self.link.ended = lambda: not self._thread.is_alive()
        self.link.on_gone = self.reboot
        self.link.now_ms = lambda: int(self.bridge.time_us // 1000) & 0x3FFFFFFF
        # A signed command takes the chip about a second to check (pure-Python Ed25519):
        # resent every 500 ms it would be parsed again and again while the buttons wait.
        self.link.sender.timeout_ms = bridge.RESEND_MS

    def reboot(self):
        """The link ended: the harness stopped (the chip faulted, or a file was bad)."""
        raise LinkError(self.bridge.error or "the emulated Pico stopped: %s"
                        % self.stderr()[-1500:])

    def power_cut(self):
        """The board loses power and comes back on the same flash; returns a fresh link,
        as a new port would be."""
        trace = self.link.trace
        self.bridge.power_cut()
        self._new_link()
        self.link.trace = trace
        return self.link

    def close(self):
        self.bridge.quit()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.bridge.stop()
        self._thread.join(5)
        try:
            os.close(self.master)
        except OSError:
            pass
        self.flash = None       # the flash's bytes at quit, for a test to read back
        if os.path.exists(self.flash_out):
            with open(self.flash_out, "rb") as f:
                self.flash = f.read()
        self._copy_journal()
        shutil.rmtree(self._dir, ignore_errors=True)

    def _copy_journal(self):
        """The board's journal, read from its flash, where the host tools keep one
        (felt-recall, --journal)."""
        if self.journal is None or self.flash is None:
            return
        data = filesystem.read(self.flash, self.board["journal"])
        if data is not None:
            with open(self.journal, "wb") as f:
                f.write(data)

    def stderr(self):
        if self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")
