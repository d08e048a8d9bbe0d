"""The plan of the house, kept by a test (docs/architecture.md): the faces (pages, API) stand on
the read and write sides and never on each other; the read side never writes; the plumbing and
the models stay near the ground; `scoring` is pure Python with no Django under it."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# what a module under each prefix must never import (the longest prefix that matches decides)
FORBIDDEN = {
    "scoring": ("django", "rest_framework", "mighty_ledger"),
    "mighty_ledger.pages": ("mighty_ledger.api",),
    "mighty_ledger.api": ("mighty_ledger.pages",),
    "mighty_ledger.reads": ("mighty_ledger.services", "mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.services": ("mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.live": ("mighty_ledger.services", "mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.http": ("mighty_ledger.reads", "mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.models": ("mighty_ledger.reads", "mighty_ledger.services", "mighty_ledger.pages",
                             "mighty_ledger.api"),
}


@dataclass(frozen=True)
class Breach:
    module: str
    imports: str
    line: int

    def __str__(self) -> str:
        return f"{self.module} imports {self.imports} (line {self.line})"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def statements(path: Path, root: Path) -> list[tuple[list[str], int]]:
    """Each import statement of ``path``: the modules it may load (relative ones resolved), its line."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.append(([alias.name for alias in node.names], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                target = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from mighty_ledger import api` loads the face itself
            found.append(([target, *(f"{target}.{alias.name}" for alias in node.names)], node.lineno))
    return found


def breaches(root: Path, packages=("scoring", "mighty_ledger")) -> list[Breach]:
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = module_name(path, root)
            rules = [prefix for prefix in FORBIDDEN if module == prefix or module.startswith(prefix + ".")]
            if not rules:
                continue
            forbidden = FORBIDDEN[max(rules, key=len)]
            for names, line in statements(path, root):
                bad = next((name for name in names
                            if any(name == no or name.startswith(no + ".") for no in forbidden)), None)
                if bad is not None:
                    found.append(Breach(module, bad, line))
    return found


def test_the_tree_keeps_the_plan():
    assert [str(breach) for breach in breaches(ROOT)] == []


@pytest.mark.parametrize(("where", "source", "breach"), [
    ("mighty_ledger/pages/views/bad.py", "from ...api import hands\n", "mighty_ledger.api"),
    ("mighty_ledger/api/bad.py", "from mighty_ledger.pages.views import hands\n", "mighty_ledger.pages.views"),
    ("mighty_ledger/reads/bad.py", "from .. import services\n", "mighty_ledger.services"),
    ("scoring/bad.py", "from django.conf import settings\n", "django.conf"),
], ids=["a-page-imports-the-api", "the-api-imports-a-page", "the-read-side-imports-a-service",
        "the-engine-imports-django"])
def test_a_deliberate_bad_import_is_caught(tmp_path, where, source, breach):
    # a copy of the layout's folders with one bad module in it, never the real tree
    for package in ("mighty_ledger/pages/views", "mighty_ledger/api", "mighty_ledger/reads", "scoring"):
        (tmp_path / package).mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(source, encoding="utf-8")

    (found,) = breaches(tmp_path)

    assert (found.imports, found.line) == (breach, 1)


@pytest.mark.parametrize("package", ["reads", "services", "pages", "api", "live", "http"])
def test_every_package_says_what_belongs_in_it_and_what_it_may_import(package):
    doc = ast.get_docstring(ast.parse((ROOT / "mighty_ledger" / package / "__init__.py").read_text()))
    assert doc and "May import" in doc and "Never" in doc
