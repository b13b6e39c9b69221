"""The host tools' shape (issue 39): no import circle among host_tools' modules (an
import inside a function counts: it runs all the same), the emulator and the floor not
importing each other (what both need is below both), and no reach into another
module's private names.  Read from the source with `ast`, as the firmware's shape is
(test_firmware_shape.py, whose circle finder this uses)."""

import ast
from pathlib import Path

from test_firmware_shape import _circle

REPO = Path(__file__).resolve().parents[2]
HOST_TOOLS = REPO / "host_tools"


def _modules():
    """{dotted name: parsed source} of every Python module of host_tools (the emulated
    Pico's Node packages aside)."""
    out = {}
    for path in sorted(HOST_TOOLS.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(), str(path))
    return out


def _imported(node, name, modules):
    """The host_tools modules one import statement of module `name` loads: a module
    named in `from PACKAGE import module` is that module, else the one imported from."""
    if isinstance(node, ast.Import):
        return set(a.name for a in node.names if a.name in modules)
    if node.level:
        is_package = any(m.startswith(name + ".") for m in modules)
        parts = name.split(".")[:None if is_package else -1]
        package = ".".join(parts[:len(parts) - node.level + 1])
        source = package + ("." + node.module if node.module else "")
    else:
        source = node.module or ""
    found = set(source + "." + a.name for a in node.names if source + "." + a.name in modules)
    if len(found) < len(node.names) and source in modules:
        found.add(source)
    return found


def _graph(modules):
    """{module: the host_tools modules it imports, anywhere in it}; host_tools' own
    __init__, which imports nothing, is no edge of note."""
    graph = {}
    for name, tree in modules.items():
        used = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                used |= _imported(node, name, modules)
        graph[name] = set(m for m in used if m not in (name, "host_tools"))
    return graph


def _within(name, package):
    return name == package or name.startswith(package + ".")


def test_no_module_of_the_host_tools_leads_back_to_itself():
    graph = _graph(_modules())
    assert _circle(graph) is None, " -> ".join(_circle(graph))


# (package, a package it must not import): the emulator and the floor apart, and what
# both use of the floor's wire (floorlink) below both.
APART = (("host_tools.emulator", "host_tools.floor"),
         ("host_tools.floor", "host_tools.emulator"),
         ("host_tools.floorlink", "host_tools.emulator"),
         ("host_tools.floorlink", "host_tools.floor"))


def test_the_emulator_and_the_floor_do_not_import_each_other():
    graph = _graph(_modules())
    crossing = []
    for one, other in APART:
        crossing += ["%s imports %s" % (name, used) for name in sorted(graph)
                     if _within(name, one) for used in sorted(graph[name])
                     if _within(used, other)]
    assert crossing == []


def test_the_graph_sees_every_kind_of_import():
    source = ("import host_tools.cli\n"
              "from host_tools import words\n"
              "from host_tools.emulator.session import Session\n"
              "def later():\n"
              "    from . import link\n")
    modules = dict.fromkeys(["host_tools.cli", "host_tools.words", "host_tools.link",
                             "host_tools.emulator", "host_tools.emulator.session",
                             "host_tools.a"], ast.parse(""))
    modules["host_tools.a"] = ast.parse(source)
    assert _graph(modules)["host_tools.a"] == {
        "host_tools.cli", "host_tools.words", "host_tools.emulator.session",
        "host_tools.link"}


def _private_reaches(modules):
    """Each import of a private name, and each `x._name` where x is not self."""
    reach = []
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                reach += ["%s imports %s" % (name, a.name) for a in node.names
                          if a.name.startswith("_")]
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                    not node.attr.startswith("__") and \
                    not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                reach.append("%s line %d: %s" % (name, node.lineno, ast.unparse(node)))
    return reach


def test_no_module_reaches_into_another_ones_private_names():
    assert _private_reaches(_modules()) == []


def test_a_reach_into_a_private_name_is_seen():
    source = ("from host_tools.link import _Gone\n"
              "def f(link):\n"
              "    self = link\n"
              "    return link._partial, self._partial, link.__class__\n")
    assert _private_reaches({"host_tools.a": ast.parse(source)}) == [
        "host_tools.a imports _Gone", "host_tools.a line 4: link._partial"]
