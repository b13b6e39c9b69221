"""Felt's boot, the same on the board and, for the emulator, on a PC (felt.boot).

On a board, boot runs this file: the board definition is /board.json and the backend
follows the runtime (MicroPython or CircuitPython); the Pico image runs felt.boot from
its frozen boot.py instead (firmware/pico/boot.py).  The emulator starts
`main.py --port PTY --board FILE [--journal FILE] [--phh DIR]` under CPython or
MicroPython's unix port, and the table runs over the link.
"""

import sys

from felt.boot import main

main(sys.argv[1:] if len(sys.argv) > 1 else [])
