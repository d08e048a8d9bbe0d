"""Which templates a request drew: a page from the cache draws none."""

from __future__ import annotations

from django.test.signals import template_rendered


class Drawn:
    """The templates drawn while it is open, by name (Django's test instrumentation tells)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __enter__(self) -> Drawn:
        template_rendered.connect(self._heard)
        return self

    def __exit__(self, *exc) -> None:
        template_rendered.disconnect(self._heard)

    def _heard(self, sender, template, **kwargs) -> None:
        self.names.append(template.name)

    def count(self, name: str) -> int:
        return self.names.count(f"partials/{name}.html")
