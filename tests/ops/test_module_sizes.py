"""Small modules named for what they hold: one over about 400 lines says at its top why it is one.

The reason is a paragraph of the module's docstring that begins "One module
because", so a reader meets it before the code and a grep finds them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 400
REASON = "One module because"


def modules() -> list[Path]:
    paths = [*ROOT.joinpath("scoring").rglob("*.py"), *ROOT.joinpath("mighty_ledger").rglob("*.py")]
    return sorted(path for path in paths if "migrations" not in path.parts)


def long_modules() -> list[Path]:
    return [path for path in modules() if len(path.read_text(encoding="utf-8").splitlines()) > LIMIT]


@pytest.mark.parametrize("path", long_modules(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_long_module_says_why_it_is_one(path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""

    assert REASON in docstring, f"{path.relative_to(ROOT)} is long: split it, or say why it is one module"


def test_the_rule_reads_the_modules_it_should():
    names = {path.relative_to(ROOT).as_posix() for path in modules()}

    assert {"scoring/scorer.py", "mighty_ledger/reads/__init__.py", "mighty_ledger/services/hands.py"} <= names
