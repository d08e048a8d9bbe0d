"""Every sentence the engine marks with N_ fills in with the values its code passes.

A template whose placeholders and the code's values drift apart would only fail when
that rule fires, in a language nobody was testing; these read the source instead.
"""

from __future__ import annotations

import ast
import copy
import pickle
import string
from pathlib import Path

from scoring.interface import check_request, score_hand
from scoring.words import N_, WordList, Words

SCORING = Path(__file__).resolve().parents[2] / "scoring"


def _n_literal(node: ast.AST) -> str | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "N_"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
    ):
        return node.args[0].value
    return None


def _templates_in(node: ast.AST) -> list[str]:
    return [text for child in ast.walk(node) if (text := _n_literal(child)) is not None]


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _every_template() -> list[tuple[str, str]]:
    """Each N_ template of the engine, with the module it is in."""
    found = []
    for path in sorted(SCORING.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for text in _templates_in(tree):
            found.append((path.stem, text))
    return found


def _words_calls() -> list[tuple[str, str, set[str]]]:
    """Each Words(template, name=value, …) call (module:line) with the N_ templates it can be given."""
    cases = []
    for path in sorted(SCORING.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            # the N_ sentences a local name is given (in every branch) before each use
            assignments = [
                (node.lineno, target.id, _templates_in(node.value))
                for node in ast.walk(function)
                if isinstance(node, ast.Assign)
                for target in node.targets
                if isinstance(target, ast.Name)
            ]
            calls = sorted(
                (node for node in ast.walk(function)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Words"),
                key=lambda node: node.lineno,
            )
            last_use: dict[str, int] = {}
            for node in calls:
                if not node.args or any(k.arg is None for k in node.keywords):
                    continue  # **params: describe.py fills only the names a template uses
                first = node.args[0]
                templates = _templates_in(first)
                if not templates and isinstance(first, ast.Name):
                    since = last_use.get(first.id, 0)
                    templates = [
                        text
                        for line, name, texts in assignments
                        if name == first.id and since < line <= node.lineno
                        for text in texts
                    ]
                    last_use[first.id] = node.lineno
                names = {k.arg for k in node.keywords}
                for template in templates:
                    cases.append((f"{path.stem}:{node.lineno}", template, names))
    return cases


def _not_plain(template: str) -> bool:
    for _, name, spec, conversion in string.Formatter().parse(template):
        # translators see bare names: no conversions, specs or attribute lookups
        if name is not None and not (name.isidentifier() and not spec and not conversion):
            return True
    values = {name: f"<{name}>" for name in _placeholders(template)}
    return Words(template, **values).translated(lambda text: text) != template.format(**values)


def test_every_template_is_a_plain_format_string():
    assert [(where, template) for where, template in _every_template() if _not_plain(template)] == []


def _misses_a_value(template: str, names: set[str]) -> bool:
    values = {name: f"<{name}>" for name in names}
    words = Words(template, **values)
    return not _placeholders(template) <= names or words.translated(lambda text: text) != str(words)


def test_every_words_call_passes_each_value_its_template_names():
    assert [(where, template, sorted(names)) for where, template, names in _words_calls()
            if _misses_a_value(template, names)] == []


def test_nested_sentences_are_translated_each_on_its_own():
    suit = Words(N_("spades"))
    line = Words(N_("{points} in {suit}"), points=15, suit=suit)
    korean = {"spades": "스페이드", "{points} in {suit}": "{suit} {points}"}

    assert line == "15 in spades"
    assert line.translated(lambda text: korean.get(text, text)) == "스페이드 15"
    assert WordList([suit, "AS"]).translated(lambda text: korean.get(text, text)) == "스페이드, AS"


def test_a_sentence_survives_copies_and_pickles_with_braces_in_it():
    words = Words(N_('A bid must be an object such as {{"points": 13, "trump": "S"}}.'))

    for again in (copy.deepcopy(words), pickle.loads(pickle.dumps(words))):
        assert again == words
        assert again.translated(lambda text: text) == str(words)


def test_problems_and_explanations_from_the_engine_are_sentences():
    illegal = {
        "seats": ["Ann", "Bo", "Cy", "Di", "Ed"],
        "declarer": "Ann",
        "contract": {"points": 12, "trump": "S"},
        "partner_call": {"type": "card", "cards": ["AS"]},
        "partners": ["Cy"],
        "points": 21,
    }
    errors = check_request(illegal)["errors"]
    result = score_hand(dict(illegal, contract={"points": 15, "trump": "S"}, points=16))

    for message in [e["message"] for e in errors] + list(result.explanation):
        assert isinstance(message, Words)
        assert message.translated(lambda text: text) == message
