"""The firmware's shape (issue 20): no import circle among its modules, counting the
modules loaded by name (felt.lazy), and no reach into another module's or object's
private names.  Read from the source with `ast`, which MicroPython lacks: a host test.
"""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def _modules():
    """{dotted name: parsed source} of every module under firmware/felt."""
    out = {}
    for path in sorted((FIRMWARE / "felt").rglob("*.py")):
        parts = path.relative_to(FIRMWARE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(), str(path))
    return out


def _uses(tree, modules):
    """The felt modules a module imports, or names as a string (felt.lazy loads those)."""
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("felt"):
            used.add(node.module)
            used.update(node.module + "." + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            used.update(a.name for a in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            used.add(node.value)
    return used & set(modules)


def _circle(graph):
    """One import circle of `graph` as a list of names, or None."""
    done, path = set(), []

    def visit(name):
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        path.append(name)
        for nxt in sorted(graph[name]):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(name)
        return None

    for name in sorted(graph):
        found = visit(name)
        if found:
            return found
    return None


def test_no_module_of_the_firmware_leads_back_to_itself():
    modules = _modules()
    graph = {}
    for name, tree in modules.items():
        # A package's own __init__ is loaded with any module of it: no edge of note.
        graph[name] = set(m for m in _uses(tree, modules) if m != name and m != "felt")
    assert _circle(graph) is None, " -> ".join(_circle(graph))


def test_the_circle_finder_finds_one():
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


def test_no_module_reaches_into_another_ones_private_names():
    reach = []
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                reach += ["%s imports %s" % (name, a.name) for a in node.names
                          if a.name.startswith("_")]
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                    not node.attr.startswith("__") and \
                    not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                reach.append("%s line %d: %s" % (name, node.lineno, ast.unparse(node)))
    assert reach == []
