"""scoring/ imports as a tree: no module reaches back into one that imports it, and nothing hides
an import inside a function to dodge such a cycle (issue 10, "one owner per fact")."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scoring"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The module an ``from … import`` names, resolved against the importing module."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def scoring_imports(name: str) -> list[tuple[str, ast.stmt]]:
    """Every scoring module ``name`` imports, with the statement that does it."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, name, path.name == "__init__.py")
            # "from . import tables" imports the submodule, not a name of the package
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
                       for alias in node.names]
        else:
            continue
        found += [(target, node) for target in targets if target in MODULES and target != name]
    return found


GRAPH = {name: sorted({target for target, _ in scoring_imports(name)}) for name in MODULES}


def find_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """One import cycle as the list of modules along it, or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for child in graph.get(node, ()):
            if state.get(child) == "open":
                return path[path.index(child):] + [child]
            if child not in state and (cycle := visit(child)):
                return cycle
        state[node] = "done"
        path.pop()
        return None

    for node in graph:
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_checker_finds_a_cycle_when_there_is_one():
    assert find_cycle({"a": ["b"], "b": ["c"], "c": ["a"]}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": ["b"], "b": ["c"], "c": []}) is None


def test_the_graph_sees_the_known_edges():
    # guards the walker itself: these imports are real, so an empty graph would be a bug
    assert "scoring.legality" in GRAPH["scoring.scorer"]
    assert "scoring.tables" in GRAPH["scoring.legality"]
    assert "scoring.presets.korean" in GRAPH["scoring.presets"]


def test_scoring_has_no_import_cycle():
    assert find_cycle(GRAPH) is None


def test_no_scoring_import_hides_in_a_function():
    hidden = {}
    for name in sorted(MODULES):
        top_level = {node.lineno for node in ast.parse(MODULES[name].read_text(encoding="utf-8")).body}
        if lines := [f"line {node.lineno}: {target}" for target, node in scoring_imports(name)
                     if node.lineno not in top_level]:
            hidden[name] = lines
    assert hidden == {}
