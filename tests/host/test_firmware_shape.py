"""The firmware's shape (issue 20): no import circle among its modules, counting the
modules loaded by name (felt.lazy), and no reach into another module's or object's
private names; one definition of a round's phases and one table of the modules loaded by
name (issue 39).  Read from the source with `ast`, which MicroPython lacks: a host test.
"""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
HOST_TOOLS = FIRMWARE.parent / "host_tools"


def _modules():
    """{dotted name: parsed source} of every module under firmware/felt."""
    out = {}
    for path in sorted((FIRMWARE / "felt").rglob("*.py")):
        parts = path.relative_to(FIRMWARE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(), str(path))
    return out


LAZY = "felt.lazy"       # its table names every module loaded by name, and loads none
PHASES = "felt.poker.phases"


def _uses(tree, modules, strings=True):
    """The felt modules a module imports, or names as a string (felt.lazy loads those)."""
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("felt"):
            used.add(node.module)
            used.update(node.module + "." + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            used.update(a.name for a in node.names)
        elif strings and isinstance(node, ast.Constant) and isinstance(node.value, str):
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
        graph[name] = set(m for m in _uses(tree, modules, name != LAZY)
                          if m != name and m != "felt")
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


def _assigned(tree):
    """{name: line} of the names a module binds at its top level."""
    out = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out[n.id] = node.lineno
    return out


def _reads_phases(tree):
    """Whether a module reads or sets a round's `phase`."""
    return any(isinstance(n, ast.Attribute) and n.attr == "phase" for n in ast.walk(tree))


def test_a_rounds_phases_are_defined_in_one_module_only():
    # A copy (felt.poker.refusals had one) drifts: the engines once disagreed on COMPLETE.
    # (felt.table.scenes' DEALING and BETTING are the LEDs' scenes, no round's phase.)
    modules = _modules()
    phases = set(_assigned(modules[PHASES]))
    assert {"DEALING", "BETTING", "CHOOSING", "COMPLETE"} <= phases
    readers = [name for name, tree in modules.items() if _reads_phases(tree)]
    assert {"felt.poker.round", "felt.banked.banked_round", "felt.poker.refusals",
            "felt.table.poker_table", "felt.table.phh"} <= set(readers)
    copies = ["%s line %d: %s" % (name, line, n) for name in readers if name != PHASES
              for n, line in _assigned(modules[name]).items() if n in phases]
    assert copies == []


def test_the_phase_finder_finds_a_copy():
    tree = ast.parse("from felt.poker.phases import BETTING\nCOMPLETE = 2\nx, (y, DEALING) = 1, (2, 0)")
    assert set(_assigned(tree)) == {"COMPLETE", "x", "y", "DEALING"}


# ----- the table of modules loaded by name (felt.lazy) ------------------------------------

LOADERS = ("load", "forget", "cold")   # lazy.load, lazy.forget, Controller.cold
# Names of a module loaded by name that are not in it as a string: where each comes from.
DYNAMIC = {
    ("felt.table.controller", "self.game.IRREGULAR_RULES"): "the game's table's constant",
    ("felt.table.controller", "module"): "cold()'s parameter, its callers checked",
    ("felt.table.controller", "name"): "felt.table.public and its LOADED",
    ("felt.table.configure", "ctl.game.__name__"): "a module of TABLES, loaded by name",
    ("felt.table.configure", "kind"): "a module of TABLES",
    ("felt.table.recovery", "table_of(header)"): "a module of TABLES (the kind map)",
    ("felt.banked.settings", "CORES[i]"): "a module of CORES",
}


def _table():
    tree = _modules()[LAZY]
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            out[node.targets[0].id] = [ast.literal_eval(e) for e in node.value.elts]
    return out


def _module_strings(tree, modules=None):
    """{name: [strings]} of a module's top-level names bound to a string or a tuple of
    them (const() unwrapped) or imported from a felt module that binds them so, and of
    the loop variables over such tuples."""
    out, imported = {}, {}     # imported: {name here: a felt module imported as it}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and modules and node.module in modules:
            theirs = _module_strings(modules[node.module], modules)
            out.update((a.asname or a.name, theirs[a.name]) for a in node.names
                       if a.name in theirs)
            imported.update((a.asname or a.name, node.module + "." + a.name)
                            for a in node.names if node.module + "." + a.name in modules)

    def strings(value):
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "const":
            value = value.args[0]
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return [value.value]
        if isinstance(value, ast.Tuple):
            found = [strings(e) for e in value.elts]
            return None if None in found else sum(found, [])
        if isinstance(value, ast.Name):
            return out.get(value.id)
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and \
                value.value.id in imported:
            return _module_strings(modules[imported[value.value.id]], modules).get(value.attr)
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            a, b = strings(value.left), strings(value.right)
            return None if a is None or b is None else a + b
        return None

    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            found = strings(node.value)
            if found is not None:
                out[node.targets[0].id] = found
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            found = strings(node.iter)
            if found is not None:
                out[node.target.id] = found
    return out


def _loaded_by_name():
    """[(module, line, expression, [names] or None)] of every load, forget and cold() in
    the firmware: the module names each call may be given, None where they are not in
    the call's module as strings."""
    out = []
    modules = _modules()
    for name, tree in modules.items():
        bound = _module_strings(tree, modules)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in LOADERS and node.args and \
                    (node.func.attr == "cold" or getattr(node.func.value, "id", "") == "lazy"):
                arg = node.args[0]
                if isinstance(arg, ast.Constant):
                    names = [arg.value]
                elif isinstance(arg, ast.Name):
                    names = bound.get(arg.id)
                else:
                    names = None
                out.append((name, node.lineno, ast.unparse(arg), names))
    return out


def test_every_entry_of_the_table_of_modules_loaded_by_name_is_a_module():
    table = _table()
    modules = _modules()
    assert sorted(table) == ["COLD", "ONCE"]
    entries = table["COLD"] + table["ONCE"]
    assert len(entries) == len(set(entries))       # each once, in one tuple
    assert [m for m in entries if m not in modules] == []


def test_every_load_and_forget_names_a_module_of_the_table():
    table = _table()
    entries = set(table["COLD"] + table["ONCE"])
    calls = _loaded_by_name()
    assert len(calls) > 90                          # found them, all of them
    unknown = ["%s line %d: %s" % (m, line, expr) for m, line, expr, names in calls
               if names is None and (m, expr) not in DYNAMIC]
    assert unknown == []
    assert sorted(DYNAMIC) == sorted(set((m, expr) for m, _, expr, names in calls
                                         if names is None))    # none left over
    outside = ["%s line %d: %s" % (m, line, n) for m, line, expr, names in calls
               for n in names or () if n not in entries]
    assert outside == []


def test_every_module_named_in_the_firmware_as_a_string_is_in_the_table():
    # Where a name comes from a game's table or a tuple (DYNAMIC), its string is here.
    modules = _modules()
    table = _table()
    entries = set(table["COLD"] + table["ONCE"])
    named = ["%s: %s" % (name, node.value) for name, tree in modules.items() if name != LAZY
             for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and node.value in modules and "." in node.value and node.value not in entries]
    assert named == []


def test_the_load_finder_resolves_names_tuples_and_loops():
    tree = ast.parse("from felt import lazy\n_A = const('felt.a')\nB = (_A, 'felt.b')\n"
                     "def f(x):\n    for n in B + ('felt.c',):\n        lazy.forget(n)\n"
                     "    lazy.load(x)\n    lazy.load(_A)\n")
    bound = _module_strings(tree)
    assert bound["n"] == ["felt.a", "felt.b", "felt.c"] and bound["_A"] == ["felt.a"]
    assert "x" not in bound


# ----- the kind of a table (felt.table.states.is_banked) ----------------------------------

def _kind_tests(tree, firmware):
    """[(line, test)] of a module's own tests of a table's kind: `"wagers" in` a header,
    and (in the firmware) a configuration's `banked` read."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and \
                node.left.value == "wagers" and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            out.append((node.lineno, ast.unparse(node)))
        elif firmware and isinstance(node, ast.Attribute) and node.attr == "banked" and \
                isinstance(node.ctx, ast.Load):
            out.append((node.lineno, ast.unparse(node)))
    return out


def _is_banked_body():
    tree = _modules()["felt.table.states"]
    return [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "is_banked"][0]


def test_a_tables_kind_is_tested_by_one_predicate_only():
    # In the firmware, the host tools and the tests alike: a new kind of table changes it
    # there.
    own = set(_kind_tests(_is_banked_body(), True))
    assert len(own) == 2                       # a header's wagers, a configuration's flag
    found = []
    for root, firmware in ((FIRMWARE / "felt", True), (HOST_TOOLS, False),
                           (FIRMWARE.parent / "tests", False)):
        for path in sorted(root.rglob("*.py")):
            for line, test in _kind_tests(ast.parse(path.read_text()), firmware):
                if not (path.name == "states.py" and (line, test) in own):
                    found.append("%s line %d: %s" % (path.relative_to(root.parent), line, test))
    assert found == []


def test_the_kind_finder_finds_both_markers():
    tree = ast.parse("a = 'wagers' in h\nb = cfg.banked\nself.banked = 1\n")
    assert [t for _, t in _kind_tests(tree, True)] == ["'wagers' in h", "cfg.banked"]
    assert [t for _, t in _kind_tests(tree, False)] == ["'wagers' in h"]


# ----- the table interface (felt.table.controller's docstring) -----------------------------

CONTROLLER = "felt.table.controller"
KIND_MAP = ("felt.table.configure", "TABLES")


def _interface():
    """({operation: [argument names]}, [constant names]) the controller's docstring
    declares under "The table interface"."""
    doc = ast.get_docstring(_modules()[CONTROLLER])
    table = doc[doc.index("The table interface."):]
    ops, consts = {}, []
    for line in table.split("\n"):
        if not line.startswith("    ") or line.startswith("     "):
            continue
        word = line.split()[0]
        if "(" in word:
            name, args = line.strip().split(")")[0].split("(")
            ops[name] = [a.strip() for a in args.split(",") if a.strip()]
        elif word.isupper():
            consts.append(word)
    return ops, consts


def _kind_map():
    module, name = KIND_MAP
    for node in _modules()[module].body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    raise AssertionError("no kind map")


def _provides(tree):
    """({function: [argument names]}, [constants]) a module defines at its top level."""
    funcs = {f.name: [a.arg for a in f.args.args] for f in tree.body
             if isinstance(f, ast.FunctionDef)}
    return funcs, [n for n in _assigned(tree) if n.isupper()]


def test_the_table_interface_is_declared_once_with_every_operation_and_constant():
    ops, consts = _interface()
    assert len(ops) >= 18 and len(consts) == 4
    assert ops["panel"] == ["ctl", "b", "p"] and ops["round_of"] == ["header"]


def test_every_kind_of_table_defines_every_operation_with_the_same_arguments():
    ops, consts = _interface()
    modules = _modules()
    assert sorted(_kind_map()) == ["felt.table.banked_table", "felt.table.poker_table"]
    wrong = []
    for name in _kind_map():
        funcs, names = _provides(modules[name])
        wrong += ["%s.%s%s, declared %s" % (name, op, funcs.get(op), args)
                  for op, args in ops.items() if funcs.get(op) != args]
        wrong += ["%s lacks %s" % (name, c) for c in consts if c not in names]
    assert wrong == []


def test_the_controller_and_its_helpers_reach_only_declared_operations_of_the_game():
    ops, consts = _interface()
    reached = set()
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and \
                    node.value.attr == "game" and isinstance(node.value.value, ast.Name):
                reached.add(node.attr)
    assert reached - set(ops) - set(consts) == {"__name__"}
    assert {"end_round", "effects", "ask", "history", "IRREGULAR_RULES", "LASTING"} <= reached


def test_the_interface_reader_finds_operations_and_constants():
    funcs, names = _provides(ast.parse("X = 1\ndef f(ctl, p=None):\n    y = 2\n"))
    assert funcs == {"f": ["ctl", "p"]} and names == ["X"]


# ----- the controller owns its fields ------------------------------------------------------

def _controller_fields():
    """The names the controller sets on itself (self.x = ...)."""
    tree = _modules()[CONTROLLER]
    return set(n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and
               isinstance(n.ctx, ast.Store) and getattr(n.value, "id", None) == "self")


def _reaches(tree, fields):
    """[(line, what)] of a module's assignments to a controller's field (through `ctl`
    or `self.ctl`), and of getattr, setattr, hasattr or delattr of another object with
    a name made from a string beginning `_` (not a dunder)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) and \
                node.attr in fields and (getattr(node.value, "id", None) == "ctl" or
                                         getattr(node.value, "attr", None) == "ctl"):
            out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and \
                getattr(node.func, "id", None) in ("getattr", "setattr", "hasattr", "delattr") \
                and len(node.args) > 1 and getattr(node.args[0], "id", None) != "self":
            name = node.args[1]
            while isinstance(name, ast.BinOp):
                name = name.left
            if isinstance(name, ast.Constant) and str(name.value).startswith("_") and \
                    not str(name.value).startswith("__"):
                out.append((node.lineno, ast.unparse(node)))
    return out


def test_no_module_assigns_the_controllers_fields_or_reaches_a_private_by_a_string():
    # The controller's named operations change its fields (restore, signed, resumed...).
    fields = _controller_fields()
    assert {"state", "stacks", "button", "rake_total", "locked", "public"} <= fields
    found = ["%s line %d: %s" % (name, line, what)
             for name, tree in _modules().items() if name != CONTROLLER
             for line, what in _reaches(tree, fields)]
    assert found == []


def test_the_reach_finder_finds_assignments_and_strings():
    tree = ast.parse("ctl.state = 1\nself.ctl.stacks += [2]\nctl.round.x = 3\n"
                     "getattr(ctl, '_on_' + k)\nsetattr(ctl, k, v)\ngetattr(self, '_x')\n")
    assert [w for _, w in _reaches(tree, {"state", "stacks", "x"})] == [
        "ctl.state", "self.ctl.stacks", "getattr(ctl, '_on_' + k)"]


ARCHITECTURE = FIRMWARE.parent / "docs" / "architecture.md"


def _drawn_layers():
    """The layers docs/architecture.md draws (its mermaid block): ({layer: [module or
    package.*]}, {(from, to)})."""
    text = ARCHITECTURE.read_text()
    block = text.split("```mermaid", 1)[1].split("```", 1)[0]
    layers, arrows = {}, set()
    for line in block.strip().splitlines()[1:]:
        line = line.strip()
        if "-->" in line:
            a, b = (x.strip() for x in line.split("-->"))
            arrows.add((a, b))
        else:
            name, _, label = line.partition("[")
            members = label.strip('"]').partition(": ")[2]
            layers[name.strip()] = [m.strip() for m in members.split(",")]
    return layers, arrows


def _layer_of(module, layers):
    for name, members in layers.items():
        for m in members:
            if module == m or (m.endswith(".*") and (module == m[:-2] or
                                                     module.startswith(m[:-1]))):
                return name
    return None


def test_the_architecture_pages_layers_are_the_imports():
    layers, arrows = _drawn_layers()
    modules = _modules()
    unplaced = [m for m in modules if _layer_of(m, layers) is None]
    assert not unplaced, "modules in no layer of docs/architecture.md: %s" % unplaced
    found = {}
    for name, tree in modules.items():
        for used in _uses(tree, modules, name != LAZY):
            a, b = _layer_of(name, layers), _layer_of(used, layers)
            if a != b:
                found.setdefault((a, b), (name, used))
    undrawn = {k: v for k, v in found.items() if k not in arrows}
    assert not undrawn, "imports the page does not draw: %s" % undrawn
    unused = arrows - set(found)
    assert not unused, "arrows the code does not have: %s" % unused
    assert _circle({a: {b for x, b in arrows if x == a} for a in layers}) is None


def test_the_layer_reader_reads_a_picture():
    layers = {"top": ["felt.boot"], "rules": ["felt.poker.*"]}
    assert _layer_of("felt.poker.round", layers) == "rules"
    assert _layer_of("felt.poker", layers) == "rules"
    assert _layer_of("felt.boot", layers) == "top"
    assert _layer_of("felt.bootx", layers) is None
    drawn, arrows = _drawn_layers()
    assert "base" in drawn and ("boot", "table") in arrows
