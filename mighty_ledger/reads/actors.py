"""Who made a change, as the history and the exports show it: "edit link", "view link" or "API".

A write records its actor's label (models.changes.Actor); labels stored before they lost
their token fragment ("edit link …abcd") are shown without it.
"""

from __future__ import annotations

import re

from mighty_ledger.models.changes import API_LABEL

# revisions and payments stored before labels lost their token fragment: "edit link …abcd", "edit api …abcd"
_OLD_LABEL = re.compile(r"^(?P<right>edit|view) (?P<channel>link|api) …\S*$")


def actor_label(stored: str) -> str:
    """A stored "by" as it is shown: labels written with a token fragment lose the fragment."""
    old = _OLD_LABEL.match(stored or "")
    if old is None:
        return stored
    return API_LABEL if old["channel"] == "api" else f"{old['right']} link"
