"""The plan of the house, kept by a test (docs/architecture.md): the faces (pages, API) stand on
the read and write sides and never on each other; the read side never writes; the plumbing and
the models stay near the ground; `scoring` is pure Python with no Django under it. An import
counts with everything it loads in turn: a package's ``__init__``, and the imports of each module
it runs, as Python runs them.

Inside the rooms: nothing under reads/ or in a template tag writes (the database or the cache),
no face queries the database itself, and no module of mighty_ledger imports itself round a
loop. Each rule is shown catching a deliberate break, made in a temporary folder, never in the tree."""

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
    # a template tag presents what its view hands it: it never calls a view or a service
    "mighty_ledger.pages.templatetags": ("mighty_ledger.api", "mighty_ledger.pages.views", "mighty_ledger.services"),
    "mighty_ledger.api": ("mighty_ledger.pages",),
    "mighty_ledger.reads": ("mighty_ledger.services", "mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.services": ("mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.live": ("mighty_ledger.services", "mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.http": ("mighty_ledger.reads", "mighty_ledger.services", "mighty_ledger.pages", "mighty_ledger.api"),
    "mighty_ledger.models": ("mighty_ledger.reads", "mighty_ledger.services", "mighty_ledger.pages",
                             "mighty_ledger.api"),
}


@dataclass(frozen=True)
class Breach:
    module: str
    imports: str
    line: int
    through: str = ""  # the module of the tree whose own import it is, when not ``module``'s

    def __str__(self) -> str:
        return f"{self.module} imports {self.imports} (line {self.line}" + (
            f", through {self.through})" if self.through else ")")


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


def _loaded(name: str, modules: set[str]) -> list[str]:
    """The modules of the tree that importing ``name`` runs: it (or the module it is a name in)
    and every package above it, whose ``__init__`` runs first."""
    parts = name.split(".")
    return [found for end in range(1, len(parts) + 1) if (found := ".".join(parts[:end])) in modules]


def breaches(root: Path, packages=("scoring", "mighty_ledger")) -> list[Breach]:
    """Each import of a module that loads, itself or through the modules it runs in turn (an import
    inside a function too), a module its layer must never import."""
    paths = {module_name(path, root): path for package in packages for path in sorted((root / package).rglob("*.py"))
             if "migrations" not in path.parts}
    imports = {module: statements(path, root) for module, path in paths.items()}
    found = []
    for module in sorted(paths):
        rules = [prefix for prefix in FORBIDDEN if module == prefix or module.startswith(prefix + ".")]
        if not rules:
            continue
        forbidden = FORBIDDEN[max(rules, key=len)]

        for names, line in imports[module]:
            # breadth first through what this statement loads, so the nearest breach is named
            queue, seen = [(name, "") for name in names], {module}
            while queue:
                name, through = queue.pop(0)
                if any(name == no or name.startswith(no + ".") for no in forbidden):
                    found.append(Breach(module, name, line, through))
                    break
                for loaded in _loaded(name, set(paths)):
                    if loaded not in seen:
                        seen.add(loaded)
                        queue += [(further, loaded) for more, _ in imports[loaded] for further in more]
    return found


def test_the_tree_keeps_the_plan():
    assert [str(breach) for breach in breaches(ROOT)] == []


@pytest.mark.parametrize(("where", "source", "breach"), [
    ("mighty_ledger/pages/views/bad.py", "from ...api import hands\n", "mighty_ledger.api"),
    ("mighty_ledger/api/bad.py", "from mighty_ledger.pages.views import hands\n", "mighty_ledger.pages.views"),
    ("mighty_ledger/reads/bad.py", "from .. import services\n", "mighty_ledger.services"),
    ("scoring/bad.py", "from django.conf import settings\n", "django.conf"),
    ("mighty_ledger/pages/templatetags/bad.py", "from mighty_ledger.pages.views import app\n",
     "mighty_ledger.pages.views"),
], ids=["a-page-imports-the-api", "the-api-imports-a-page", "the-read-side-imports-a-service",
        "the-engine-imports-django", "a-template-tag-imports-a-view"])
def test_a_deliberate_bad_import_is_caught(tmp_path, where, source, breach):
    # a copy of the layout's folders with one bad module in it, never the real tree
    for package in ("mighty_ledger/pages/views", "mighty_ledger/pages/templatetags", "mighty_ledger/api",
                    "mighty_ledger/reads", "scoring"):
        (tmp_path / package).mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(source, encoding="utf-8")

    (found,) = breaches(tmp_path)

    assert (found.imports, found.line) == (breach, 1)


def test_a_bad_import_through_another_module_is_caught(tmp_path):
    # as reads/nights.py once did: the read side reached the write side through the plumbing's
    # access.py, which took its Actor from services (whose __init__ loads every service)
    for folder in ("mighty_ledger/reads", "mighty_ledger/http", "mighty_ledger/services"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "mighty_ledger/reads/nights.py").write_text("from mighty_ledger.http.access import is_row_id\n")
    (tmp_path / "mighty_ledger/http/access.py").write_text("\n\nfrom mighty_ledger.services import Actor\n")
    (tmp_path / "mighty_ledger/services/__init__.py").write_text("from mighty_ledger.services.hands import x\n")
    (tmp_path / "mighty_ledger/services/hands.py").write_text("")

    assert [str(breach) for breach in breaches(tmp_path)] == [
        "mighty_ledger.http.access imports mighty_ledger.services (line 3)",
        "mighty_ledger.reads.nights imports mighty_ledger.services (line 1, through mighty_ledger.http.access)",
    ]


@pytest.mark.parametrize("package", ["reads", "services", "pages", "api", "live", "http"])
def test_every_package_says_what_belongs_in_it_and_what_it_may_import(package):
    doc = ast.get_docstring(ast.parse((ROOT / "mighty_ledger" / package / "__init__.py").read_text()))
    assert doc and "May import" in doc and "Never" in doc


# --- the read side and the template tags only read --------------------------------------------------

# nothing under these writes: the read side returns data, and a template tag presents what its
# view hands it (pages/views/board_rows.py draws the board's rows for the tags)
READ_ONLY = ("mighty_ledger/reads", "mighty_ledger/pages/templatetags")
# what a model, a manager or a queryset writes with (and ``update`` with fields named: a dict's
# takes a mapping)
ORM_WRITES = {"save", "create", "bulk_create", "bulk_update", "delete", "get_or_create", "update_or_create"}
# what writes to Django's ``cache``; reading it is a read
CACHE_WRITES = {"set", "add", "delete", "set_many", "delete_many", "incr", "decr", "touch", "clear"}


@dataclass(frozen=True)
class Found:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.what}"


def python_files(root: Path, folders: tuple[str, ...]) -> list[Path]:
    return sorted(path for folder in folders for path in (root / folder).rglob("*.py"))


def method_calls(path: Path):
    """Each call of a method in ``path``: the call, the method's name, what it is called on."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            yield node, node.func.attr, node.func.value


def _update_with_fields(call: ast.Call, name: str) -> bool:
    return name == "update" and bool(call.keywords) and not call.args


def writes(root: Path) -> list[Found]:
    found = []
    for path in python_files(root, READ_ONLY):
        for call, name, called_on in method_calls(path):
            to_the_cache = isinstance(called_on, ast.Name) and called_on.id == "cache" and name in CACHE_WRITES
            if to_the_cache or name in ORM_WRITES or _update_with_fields(call, name):
                found.append(Found(path.relative_to(root).as_posix(), call.lineno, ast.unparse(call.func)))
    return found


def test_nothing_under_the_read_side_or_in_a_template_tag_writes():
    assert [str(found) for found in writes(ROOT)] == []


@pytest.mark.parametrize(("where", "source", "what"), [
    ("mighty_ledger/reads/bad.py", "def kept(hand):\n    hand.save()\n", "hand.save"),
    ("mighty_ledger/reads/bad.py", "def gone(session):\n    session.hands.filter(number=3).update(deleted_at=None)\n",
     "session.hands.filter(number=3).update"),
    ("mighty_ledger/reads/bad.py", "def remembered(key, value):\n    cache.set(key, value, 60)\n", "cache.set"),
    ("mighty_ledger/pages/templatetags/bad.py", "def row(session):\n    return Hand.objects.create(session=session)\n",
     "Hand.objects.create"),
], ids=["a-read-saves-a-hand", "a-read-updates-hands", "a-read-writes-the-cache", "a-template-tag-creates-a-hand"])
def test_a_deliberate_write_is_caught(tmp_path, where, source, what):
    # a copy of the folders with one bad module in it, never the real tree
    for folder in READ_ONLY:
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(source, encoding="utf-8")

    assert writes(tmp_path) == [Found(where, 2, what)]


# --- the faces ask the reads --------------------------------------------------------------------------

# pages and the API parse, call one read or one service, and render: no ORM query of their own
# (no generic view of Django REST framework needs a queryset here either: the API's views are
# plain APIViews over reads)
FACES = ("mighty_ledger/pages", "mighty_ledger/api")
# what only a queryset, a manager or a model asks the database; ``get`` with fields named,
# ``count()`` of nothing and ``values`` of fields too (a dict's take a key, a list's a value)
QUERIES = {"filter", "exclude", "select_related", "prefetch_related", "values_list", "annotate", "aggregate",
           "exists", "order_by", "only", "defer", "in_bulk", "iterator", "latest", "earliest", "first", "last",
           "all", "distinct", "select_for_update", "raw", "using", "refresh_from_db", "bulk_update", *ORM_WRITES}
SHORTCUTS = {"get_object_or_404", "get_list_or_404"}


def queryset_methods(root: Path) -> set[str]:
    """The ledger's own queryset methods (``live``, ``in_order``…), read from the models."""
    paths = [*root.glob("mighty_ledger/models.py"), *root.glob("mighty_ledger/models/*.py")]
    names = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(ast.unparse(base).endswith("QuerySet") for base in node.bases):
                names |= {item.name for item in node.body
                          if isinstance(item, ast.FunctionDef) and not item.name.startswith("_")}
    return names


def _asks_the_database(call: ast.Call, name: str, ours: set[str]) -> bool:
    named_only = bool(call.keywords) and not call.args
    return (name in QUERIES or name in ours or _update_with_fields(call, name)
            or (name == "get" and named_only) or (name == "count" and not call.args and not call.keywords)
            or (name == "values" and bool(call.args or call.keywords)))


def queries(root: Path) -> list[Found]:
    ours = queryset_methods(root)
    found = []
    for path in python_files(root, FACES):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "objects":
                found.append(Found(where, node.lineno, ast.unparse(node)))
            elif isinstance(node, ast.Name) and node.id in SHORTCUTS:
                found.append(Found(where, node.lineno, node.id))
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                found += [Found(where, node.lineno, f"import {name}") for name in names
                          if name == "django.db" or name.startswith("django.db.")]
        for call, name, _called_on in method_calls(path):
            if _asks_the_database(call, name, ours):
                found.append(Found(where, call.lineno, ast.unparse(call.func)))
    return found


def test_no_face_queries_the_database_itself():
    assert [str(found) for found in queries(ROOT)] == []


def test_the_ledgers_own_queryset_methods_are_read():
    assert {"live", "in_order", "latest_first", "standing", "open"} <= queryset_methods(ROOT)


@pytest.mark.parametrize(("where", "source", "what"), [
    ("mighty_ledger/pages/views/bad.py", "def board(session):\n    return list(session.hands.filter(number=3))\n",
     "session.hands.filter"),
    ("mighty_ledger/api/bad.py", "def payment(session, pk):\n    return session.payments.get(pk=pk)\n",
     "session.payments.get"),
    ("mighty_ledger/api/bad.py", "def count(session):\n    return session.hands.count()\n", "session.hands.count"),
    ("mighty_ledger/pages/views/bad.py", "def player(request, pk):\n    return get_object_or_404(Player, pk=pk)\n",
     "get_object_or_404"),
    ("mighty_ledger/api/bad.py", "import datetime\nfrom django.db.models import Q\n", "import django.db.models"),
], ids=["a-page-filters-hands", "the-api-gets-a-payment", "the-api-counts-hands", "a-page-gets-or-404s",
        "the-api-builds-a-query"])
def test_a_deliberate_query_in_a_face_is_caught(tmp_path, where, source, what):
    for folder in FACES:
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(source, encoding="utf-8")

    assert queries(tmp_path) == [Found(where, 2, what)]


def test_a_manager_reached_through_objects_is_caught(tmp_path):
    (tmp_path / "mighty_ledger/api").mkdir(parents=True)
    (tmp_path / "mighty_ledger/api/bad.py").write_text("def players():\n    return Player.objects.all()\n")

    assert {str(found) for found in queries(tmp_path)} == {
        "mighty_ledger/api/bad.py:2 Player.objects", "mighty_ledger/api/bad.py:2 Player.objects.all"}


# --- no loops ---------------------------------------------------------------------------------------


def imported_modules(path: Path, root: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports, at its top or inside a function (an import
    that runs later is a loop all the same, only found later). ``from package import module`` is
    the module: Python runs the package's ``__init__`` first, but a package that gathers its
    modules there (services/) is no loop unless one of them imports the package back."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            names += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
    found = set()
    for name in names:
        while name and name not in modules:  # a name inside a module: the module
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)
    return found


def loops(root: Path) -> list[list[str]]:
    """The modules of mighty_ledger that import each other, directly or round a longer circle: each
    set of them (a strongly connected part of the import graph, Tarjan's), sorted."""
    paths = {module_name(path, root): path for path in (root / "mighty_ledger").rglob("*.py")
             if "migrations" not in path.parts}
    graph = {module: imported_modules(path, root, set(paths)) for module, path in paths.items()}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            part = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)


def test_no_module_imports_itself_round_a_loop():
    assert loops(ROOT) == []


@pytest.mark.parametrize(("modules", "loop"), [
    ({"stats.py": "from . import ratings\n", "ratings.py": "from .stats import selection_of\n"},
     ["mighty_ledger.pages.views.ratings", "mighty_ledger.pages.views.stats"]),
    ({"hands.py": "from mighty_ledger.pages.views import links\n",
      "links.py": "def board_url():\n    from mighty_ledger.pages.views.next_hand import url\n",
      "next_hand.py": "import mighty_ledger.pages.views.hands\n"},
     ["mighty_ledger.pages.views.hands", "mighty_ledger.pages.views.links", "mighty_ledger.pages.views.next_hand"]),
], ids=["two-views-import-each-other", "three-views-round-a-function-level-import"])
def test_a_deliberate_loop_is_caught(tmp_path, modules, loop):
    folder = tmp_path / "mighty_ledger/pages/views"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "rules.py").write_text("from . import stats\n")  # outside the loop: it only reaches into it
    for name, source in modules.items():
        (folder / name).write_text(source, encoding="utf-8")

    assert loops(tmp_path) == [loop]
