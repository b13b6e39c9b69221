"""Code a table needs seldom (the board definition's checks at boot, the journal's
reading after a restart, a configuration's checks and sign), loaded when needed and
forgotten after: on a board each module's bytecode lives in the heap while it is loaded
(hardware/boards/SCHEMA.md, "Heap").  A module forgotten here must hold nothing that
outlives its use, such as a class of lasting objects: their methods keep it alive.
"""

import sys


def load(name):
    """The module `name`, imported if it is not."""
    __import__(name)
    return sys.modules[name]


def forget(name):
    """Drop the module `name`, so the GC can take its memory back."""
    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    if package in sys.modules and hasattr(sys.modules[package], attr):
        delattr(sys.modules[package], attr)
