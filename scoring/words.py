"""Sentences the engine says to players, kept translatable without Django.

The engine writes English templates wrapped in ``N_``, a marker that does
nothing here: the web layer's ``makemessages --keyword=N_`` collects them, and
``Words.translated(gettext)`` renders them in the reader's language. A
``Words`` is the English text as a plain ``str``, so JSON answers, the CLI and
``==`` comparisons see exactly the English sentence.

Card codes, seat names and numbers are parameters; words that need
translating themselves (a suit, a list of phrases) are nested ``Words`` or a
``WordList``, translated on their own.
"""

from __future__ import annotations

from collections.abc import Callable

Translate = Callable[[str], str]


def N_(message: str) -> str:
    """Marks a message for translation; the web layer translates it when rendering."""
    return message


class Words(str):
    """A sentence: English as a plain ``str``, and the template and values to translate it."""

    template: str
    params: dict

    def __new__(cls, template: str, **params: object) -> Words:
        # nested Words already are their English, so the English needs no recursive render
        self = super().__new__(cls, template.format(**params))
        self.template = template
        self.params = params
        return self

    def __getnewargs_ex__(self):
        # copies and pickles rebuild from the template, not from the filled-in English
        return (self.template,), self.params

    def translated(self, translate: Translate) -> str:
        return _fill(translate(self.template), self.params, translate)


class WordList(str):
    """Several phrases joined into one, each translated on its own."""

    items: tuple
    separator: str

    def __new__(cls, items, separator: str = ", ") -> WordList:
        items = tuple(items)
        self = super().__new__(cls, separator.join(str(item) for item in items))
        self.items = items
        self.separator = separator
        return self

    def __getnewargs__(self):
        return self.items, self.separator

    def translated(self, translate: Translate) -> str:
        return self.separator.join(_render(item, translate) for item in self.items)


def translated(value: object, translate: Translate) -> str:
    """``value`` in the reader's language when it is Words, else as it is."""
    return _render(value, translate)


def _render(value: object, translate: Translate) -> str:
    if isinstance(value, Words | WordList):
        return value.translated(translate)
    return str(value)


def _fill(template: str, params: dict, translate: Translate) -> str:
    return template.format(**{name: _render(value, translate) for name, value in params.items()})


# --- stored sentences ----------------------------------------------------------
# A stored hand keeps its explanation as templates and values, so a page shows it
# in the reader's language without scoring the hand again.


def as_message(value: object) -> object:
    """A sentence as JSON: {"message", "params"} for Words, {"items", "separator"} for a WordList."""
    if isinstance(value, Words):
        return {"message": value.template, "params": {k: as_message(v) for k, v in value.params.items()}}
    if isinstance(value, WordList):
        return {"items": [as_message(item) for item in value.items], "separator": value.separator}
    return value if isinstance(value, int | float | bool) or value is None else str(value)


def from_message(stored: object) -> object:
    """The sentence ``as_message`` stored, as Words again (plain text stays plain text)."""
    if isinstance(stored, dict) and "message" in stored:
        params = {k: from_message(v) for k, v in (stored.get("params") or {}).items()}
        return Words(stored["message"], **params)
    if isinstance(stored, dict) and "items" in stored:
        return WordList([from_message(item) for item in stored["items"]], stored.get("separator", ", "))
    return stored
