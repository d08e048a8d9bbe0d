"""The table's model (test_table_model.py) with phones that tap Save at the same moment: real
threads, each with its own database connection, released together, on SQLite and PostgreSQL.

Whichever request the database takes first is the one stored; the model then checks every answer
against what it expects had the requests come one after the other in that order, and after every
step that the stored hands are exactly the hands meant, each once.

`make test` runs a few examples; a longer run:
    TABLE_MODEL_EXAMPLES=100 .venv/bin/python -m pytest tests/web/test_table_model_at_once.py
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule, run_state_machine_as_test

from mighty_ledger.http.request_keys import hand_scope
from mighty_ledger.models import RequestKey
from tests.api.test_concurrency import at_once
from tests.web.test_table_model import PHONES, Bid, TheTable, Trick

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = max(3, int(os.environ.get("TABLE_MODEL_EXAMPLES", "30")) // 6)


class TheTableAtOnce(TheTable):
    # new hands, each stored under the number the database gave it, so the order they were taken
    # in is known (two contracts at once: tests/web/test_saves_at_once.py)
    @precondition(lambda self: sum(1 for phone in self.phones.values()
                                   if phone.page and phone.page.kind in ("hand", "complete")) >= 2)
    @rule(confirm=st.booleans())
    def phones_save_at_the_same_moment(self, confirm):
        phones = [phone for phone in self.phones.values() if phone.page and phone.page.kind in ("hand", "complete")]
        pages = [phone.page for phone in phones]
        sent = [page.form.posted(page.taps | ({"confirm": "1"} if confirm and page.asked else {}))
                for page in pages]
        answers = at_once(len(pages), lambda i: phones[i].client.post(pages[i].form.action, sent[i]))
        # the order the database took them in: the hands they stored by number, then the others
        stored = dict(RequestKey.objects.filter(scope=hand_scope(self.session.pk), key__in=[p.key for p in pages],
                                                hand__isnull=False).values_list("key", "hand__number"))
        order = sorted(range(len(pages)), key=lambda i: (stored.get(pages[i].key, 10**9), i))
        self.in_flight = tuple(pages)
        for index in order:
            phone, page, answer = phones[index], pages[index], answers[index]
            outcome = self.expected(page, confirm and page.asked)
            expected = {"saved": 302, "used": 302, "asked": 409, "stale": 409}.get(outcome, 200)
            assert answer.status_code == expected, (outcome, answer.status_code, page.kind)
            if outcome == "saved":
                self.saved(page)
            if outcome in ("saved", "used"):
                phone.left, phone.page = page, None
            elif outcome == "asked":
                page.asked = True
            else:
                phone.page = None
        self.in_flight = ()


def test_phones_saving_at_the_same_moment_store_what_their_players_meant():
    run_state_machine_as_test(TheTableAtOnce, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=15, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ))


@pytest.mark.parametrize("attempt", range(5))  # a race: each attempt is another chance to lose it
def test_the_model_sees_two_phones_saving_one_hand_at_once(attempt):
    table = TheTableAtOnce()
    table.a_session()
    table.open_a_new_hand("A", Bid("Ann", 15, "D", "AS"), Trick("Cy", 16), save_now=False, hears="unheard")
    table.another_phone_enters_the_same_hand("B", "A", save_now=False, hears="unheard")

    table.phones_save_at_the_same_moment(confirm=False)

    assert sum(1 for name in PHONES if table.phones[name].page and table.phones[name].page.asked) == 1
    table.the_ledger_holds_what_the_players_meant()
