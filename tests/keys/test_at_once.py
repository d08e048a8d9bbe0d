"""Requests with one key at the same moment: one thing made, the others get its answer or are
told to wait (issue 12, point 7; issue 36).

Real threads, each with its own database connection, released together (tests/api/test_concurrency.py
``at_once``), on SQLite (whose IMMEDIATE transactions make writers wait their turn) and on
PostgreSQL (where the requests truly overlap, and the key's advisory lock and the unique
(scope, key) constraint decide).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from mighty_ledger.http import request_keys
from mighty_ledger.models import Group, Hand, Player, Season, Session
from tests.api.test_concurrency import at_once, codes
from tests.factories import MADE_15_DIAMONDS, SEATS, SessionFactory

from .conftest import Api, assert_error_shape, hands_url
from .test_forms import hand_form_data

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_rate_limits")]

TEN = 10


# --- the API ------------------------------------------------------------------------------------

CREATES = {
    "groups": ("/api/v1/groups", {"name": "Friday", "players": ["Ann", "Bo"]}, lambda s: Group.objects.filter(name="Friday")),
    "players": ("/api/v1/players", {"name": "Flo"}, lambda s: Player.objects.filter(name="Flo")),
    "sessions": ("/api/v1/sessions", {"seats": list(SEATS), "preset": "pagat-standard"},
                 lambda s: Session.objects.filter(group=s.group).exclude(pk=s.pk)),
    "seasons": ("/api/v1/seasons", {"name": "Spring", "starts": "2030-03-01"}, lambda s: Season.objects.all()),
    # ten phones resending one hand, as an outbox does
    "hands": ("/api/v1/sessions/{session}/hands", MADE_15_DIAMONDS, lambda s: Hand.objects.filter(session=s)),
}


@pytest.mark.parametrize("create", list(CREATES))
def test_ten_creates_with_one_key_at_once_make_one_and_answer_it_or_say_wait(create):
    url, body, made = CREATES[create]
    session = SessionFactory()
    token = session.group.edit_token

    responses = at_once(TEN, lambda i: Api(token).post(url.format(session=session.pk), body,
                                                       **{"Idempotency-Key": "one-key"}))

    assert set(codes(responses)) <= {200, 201, 409} and codes(responses).count(201) == 1, codes(responses)
    first = next(response for response in responses if response.status_code == 201)
    for response in responses:
        if response.status_code == 200:
            assert response.content == first.content  # the first answer, byte for byte
        elif response.status_code == 409:
            assert response.json()["errors"][0]["code"] == "request_in_progress"
    assert made(session).count() == 1


@pytest.mark.postgres_only  # SQLite has one writer at a time: the repeat waits its turn, then gets the replay
def test_a_duplicate_sent_while_the_first_is_being_written_is_told_to_wait():
    session = SessionFactory()
    token = session.group.edit_token
    writing, finish = threading.Event(), threading.Event()
    answers = {}

    def send():
        return Api(token).post(hands_url(session), MADE_15_DIAMONDS, **{"Idempotency-Key": "phone-1-hand-1"})

    def slow_insert(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("INSERT", "WITH")) and "mighty_ledger_hand" in sql:
            writing.set()
            finish.wait(timeout=30)
        return execute(sql, params, many, context)

    def first():
        try:
            with connection.execute_wrapper(slow_insert):
                answers["first"] = send()
        finally:
            connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    assert writing.wait(timeout=30)
    try:
        answers["second"] = send()
    finally:
        finish.set()
        thread.join(timeout=60)

    assert_error_shape(answers["second"], 409, "request_in_progress")
    assert answers["first"].status_code == 201
    assert send().json() == answers["first"].json()
    assert Hand.objects.filter(session=session).count() == 1


# --- the pages' forms ---------------------------------------------------------------------------


def _session_form(session) -> dict:
    return {"played_on": "2025-03-01", "preset": "pagat-standard",
            **{f"seat_{i + 1}": name for i, name in enumerate(SEATS)}}


FORMS = {
    "player": (lambda s: f"/g/{s.group.edit_token}/players/add/", lambda s: {"name": "Flo"},
               lambda s: Player.objects.filter(group=s.group, name="Flo")),
    "season": (lambda s: f"/g/{s.group.edit_token}/seasons/", lambda s: {"name": "Spring", "starts": "2030-03-01"},
               lambda s: Season.objects.filter(group=s.group)),
    "session": (lambda s: f"/g/{s.group.edit_token}/sessions/new/", _session_form,
                lambda s: Session.objects.filter(group=s.group).exclude(pk=s.pk)),
    "group": (lambda s: "/g/new/", lambda s: {"name": "Friday", "player_names": "Ann\nBo"},
              lambda s: Group.objects.filter(name="Friday")),
    "hand": (lambda s: reverse("hand_new", args=[s.group.edit_token, s.pk]), lambda s: hand_form_data(),
             lambda s: Hand.objects.filter(session=s)),
}


@pytest.mark.parametrize("form", list(FORMS))
def test_ten_posts_of_one_form_at_once_make_one_thing_and_land_on_it(form):
    path, data, made = FORMS[form]
    session = SessionFactory()
    sent = data(session) | {"request_key": request_keys.new_form_key()}

    responses = at_once(TEN, lambda i: Client().post(path(session), sent))

    assert {response.status_code for response in responses} == {302}
    assert len({response["Location"] for response in responses}) == 1
    assert made(session).count() == 1
    if form == "group":
        assert Player.objects.filter(group__name="Friday").count() == 2
    if form == "hand":
        assert responses[0]["Location"] == f"/g/{session.group.edit_token}/s/{session.pk}/"
        assert Session.objects.get(pk=session.pk).hand_count == 1
