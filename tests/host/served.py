"""felt-emulator --serve as a test starts it: a board on a bench, its link on a free TCP
port (host_tools/emulator/serve.py)."""

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


class Served:
    """felt-emulator --serve on a free port; `url` is what it said to connect to."""

    def __init__(self, *options, cwd=ROOT, preexec=None):
        self.proc = subprocess.Popen(
            [str(BIN / "felt-emulator"), "--serve", "127.0.0.1:0", *map(str, options)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            preexec_fn=preexec)
        self.said = []
        self._buf = b""
        line = self.line(120)
        assert "the board's link is at socket://" in line, line
        self.url = line.split(" at ")[1].split()[0]
        self.host, self.port = self.url[len("socket://"):].rsplit(":", 1)

    def line(self, timeout=10):
        """The next line the server printed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            assert left > 0 and select.select([self.proc.stdout], [], [], left)[0], \
                "the server said nothing for %d s" % timeout
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            assert chunk, "the server ended: %s" % self.proc.stderr.read().decode()
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        self.said.append(line.decode() + "\n")
        return self.said[-1]

    def stop(self):
        if self.proc.stdout.closed:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)    # Ctrl-C
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        rest = self._buf + self.proc.stdout.read()
        self.said += [line + "\n" for line in rest.decode().splitlines()]
        self.proc.stdout.close()
        self.proc.stderr.close()
