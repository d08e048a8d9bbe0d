"""The pages a hand may be queued from carry the session's table-flow rule, as data.

Offline, static/js/flow.js steps this rule through each queued hand, deal miss and
all-pass to say who deals next (tests/browser/test_flow_js.py checks it against the
engine). A JSON block, never a script the browser runs, so the CSP stays as it is.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from mighty_ledger.reads import system_of
from scoring.flow_rules import flow_rule
from tests.factories import SessionFactory

BLOCK = re.compile(r'<script id="flow-rule" type="application/json">(.*?)</script>', re.S)


@pytest.mark.parametrize("page", ["session_board", "hand_new", "event_new", "contract_new"])
def test_the_page_carries_the_sessions_flow_rule_and_seats(client, db, page):
    session = SessionFactory(preset="korean-7-rotation", seats=["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"])

    response = client.get(reverse(page, args=[session.group.edit_token, session.pk]))

    assert response.status_code == 200
    (block,) = BLOCK.findall(response.content.decode())
    assert json.loads(block) == {
        "rule": flow_rule(system_of(session)).as_json(),
        "seats": ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"],
        "first_dealer": session.first_dealer,
    }
    assert json.loads(block)["rule"]["sitting_out"]["after_hand"] == ["declarer", "partners"]
