"""A page's form as a browser would send it: what the page arrived with (ticked boxes, filled
boxes, hidden fields), with the player's own taps on top. The model of the table
(test_table_model.py) sends exactly this, so a value a page arrives with pre-set is sent as a
real phone would send it, chosen or not."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class FormPage:
    """The first form of a page with ``form_id``: its action and the values it would post."""

    action: str = ""
    values: dict[str, list[str]] = field(default_factory=dict)
    found: bool = False

    def value(self, name: str) -> str | None:
        given = self.values.get(name)
        return given[0] if given else None

    def posted(self, taps: dict[str, str | list[str]] | None = None) -> dict[str, list[str]]:
        """What Save sends: the page's values, each field the player tapped replaced by the tap."""
        data = {name: list(values) for name, values in self.values.items()}
        for name, tapped in (taps or {}).items():
            data[name] = list(tapped) if isinstance(tapped, list) else [tapped]
        return {name: values for name, values in data.items() if values}


class _Reader(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__()
        self.form_id = form_id
        self.page = FormPage()
        self.inside = False
        self.done = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and not self.done and attributes.get("id") == self.form_id:
            self.inside, self.page.found = True, True
            self.page.action = attributes.get("action") or ""
            return
        if not self.inside or tag != "input" or "disabled" in attributes:
            return
        name, kind = attributes.get("name"), (attributes.get("type") or "text").lower()
        if not name or kind in ("submit", "button"):
            return
        self.page.values.setdefault(name, [])
        if kind in ("radio", "checkbox"):
            if "checked" in attributes:
                self.page.values[name].append(attributes.get("value") or "on")
        elif attributes.get("value"):
            self.page.values[name].append(attributes["value"])

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside, self.done = False, True


def form_on(html: str, form_id: str) -> FormPage:
    reader = _Reader(form_id)
    reader.feed(html)
    return reader.page


def mark_forms(html: str) -> list[dict]:
    """A payments card's "mark as paid" forms (the confirmation of one past what is owed included),
    each as the values it posts."""
    return [dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
            for form in re.findall(r'<form[^>]*action="[^"]*/payments/mark/".*?</form>', html, re.S)]
