"""Code a table needs seldom (the board definition's checks at boot, the journal's
reading after a restart, a configuration's checks and sign), loaded when needed and
forgotten after: on a board each module's bytecode lives in the heap while it is loaded
(hardware/boards/SCHEMA.md, "Heap").  A module forgotten here must hold nothing that
outlives its use, such as a class of lasting objects: their methods keep it alive.
"""

import sys


def load(name):
    """The module `name`, imported if it is not."""
    m = sys.modules.get(name)   # the common case, without the import machinery
    if m is None:
        __import__(name)
        m = sys.modules[name]
    return m


def forget(name):
    """Drop the module `name`, so the GC can take its memory back."""
    sys.modules.pop(name, None)
    package, _, attr = name.rpartition(".")
    if package in sys.modules and hasattr(sys.modules[package], attr):
        delattr(sys.modules[package], attr)


def warm(names):
    """Load each module of `names` and forget it again, with every module it brought
    in, one at a time: only their names stay, interned for good.  MicroPython keeps
    names in a pool that grows by doubling, ~9 KB in one block at a board's size; done
    at boot while the heap is whole, the pool grows then, not when the link first asks
    a fragmented heap for cold code (a MemoryError that rebooted the board).  A frozen
    image has every name already, and CPython no such pool."""
    if sys.implementation.name != "micropython" or __file__.startswith(".frozen"):
        return
    import gc
    for name in names:
        before = dict(sys.modules)
        try:
            load(name)
        except MemoryError:
            pass      # a heap too small to warm: the table runs as it would have
        for new in [n for n in sys.modules if n not in before]:
            forget(new)
        gc.collect()
