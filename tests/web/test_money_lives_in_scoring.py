"""Money is computed in one place: scoring.settle, reached through the read side.

The rule, as docs/architecture.md states it: outside scoring/, no module rounds money
(no ``quantize``, no ``ROUND_…``) or computes a payment, a
share or a transfer; the money functions of scoring.settle are imported by the
read modules alone (mighty_ledger/reads/__init__.py, stats.py and balance.py), and
pages and API take their figures from those. Two faces that each rounded money
their own way once showed one table two different evenings.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scoring.ledger
import scoring.settle

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "mighty_ledger"
READ_SIDE = {"mighty_ledger/reads/__init__.py", "mighty_ledger/reads/stats.py", "mighty_ledger/reads/balance.py"}

# what scoring.settle and scoring.ledger compute; their data (Transfer, POT, currency facts) is free to use
MONEY_FUNCTIONS = {
    "settle_money", "to_money", "chip_counts", "fewest_transfers", "settle_session", "hand_transfers",
    "with_pot", "still_owed", "left_to_pay", "balances_of",
}
ROUNDING_CALLS = {"quantize"}  # round() of a percentage or a chart coordinate is no money


def modules() -> list[Path]:
    return sorted(path for path in PROJECT.rglob("*.py") if "migrations" not in path.parts)


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def money_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scoring."):
            found += [alias.name for alias in node.names if alias.name in MONEY_FUNCTIONS]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            # a whole module imported would hide which of its functions are called
            names = [alias.name for alias in node.names]
            if isinstance(node, ast.ImportFrom) and node.module == "scoring":
                found += [f"scoring.{name}" for name in names if name in ("settle",)]
            elif isinstance(node, ast.Import):
                found += [name for name in names if name == "scoring.settle"]
    return found


def rounding(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ROUNDING_CALLS:
                found.append(f"{name}() on line {node.lineno}")
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.attr if isinstance(node, ast.Attribute) else node.id
            if name.startswith("ROUND_"):
                found.append(f"{name} on line {node.lineno}")
    return found


def test_the_listed_money_functions_are_the_engines():
    for name in MONEY_FUNCTIONS:
        assert callable(getattr(scoring.settle, name, None) or getattr(scoring.ledger, name, None)), name


def test_only_the_read_side_imports_the_money_rules():
    # a module listed computes money: it should take it from mighty_ledger.reads instead
    assert {relative(path): imported for path in modules() if relative(path) not in READ_SIDE
            if (imported := money_imports(ast.parse(path.read_text(encoding="utf-8"))))} == {}


def test_nothing_outside_scoring_rounds_money():
    assert {relative(path): found for path in modules()
            if (found := rounding(ast.parse(path.read_text(encoding="utf-8"))))} == {}


def test_the_read_side_does_take_its_money_from_the_engine():
    reads = ast.parse((PROJECT / "reads" / "__init__.py").read_text(encoding="utf-8"))

    assert {"settle_session", "hand_transfers"} <= set(money_imports(reads))
