"""Two phones edit one hand: the second to save is shown both versions and chooses; nothing is
overwritten blindly, and the history keeps every change made. The API says the same with 409.

And a hand form left open asks for the coming hand again (hands/next/) when another phone saves one.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mighty_ledger import reads, services
from mighty_ledger.models import Revision
from tests.api.conftest import Api
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.web.test_table import form_data

# pagat example 1 (15♦ made with 16) as hand 1; the other phone says 18, this one says 13
THEIRS = dict(MADE_15_DIAMONDS, points=18)
MINE = dict(MADE_15_DIAMONDS, points=13)


def edit_url(session, number: int = 1) -> str:
    return reverse("hand_edit", args=[session.group.edit_token, session.pk, number])


@pytest.fixture
def changed_meanwhile(db):
    """Hand 1 read at version 1 on this phone; another phone saved its edit since (version 2)."""
    session = SessionFactory()
    hand = HandFactory(session=session)
    services.hand_amend(hand=hand, entry=THEIRS, version=1)
    return session


def test_a_stale_edit_is_refused_with_both_versions_side_by_side(client, changed_meanwhile):
    session = changed_meanwhile

    response = client.post(edit_url(session), form_data(MINE, 1))

    assert response.status_code == 409
    page = response.content.decode()
    assert 'data-testid="edit-conflict"' in page
    # both summaries, each with the engine's payments: the stored result for theirs, a preview for mine
    assert response.context["theirs"].entry["points"] == 18
    assert response.context["preview"]["payments"]["Ann"] == -4  # pagat example 2: 15♦ set with 13
    assert {seat: (mine, theirs) for seat, mine, theirs in response.context["rows"]}["Ann"] == (-4, 14)
    hand = session.hands.get(number=1)
    assert hand.entry["points"] == 18 and hand.version == 2


def test_keep_theirs_is_the_highlighted_choice_and_saves_nothing(client, changed_meanwhile):
    response = client.post(edit_url(changed_meanwhile), form_data(MINE, 1))

    page = response.content.decode()
    keep_theirs = page[page.index('data-testid="keep-theirs"') - 200:page.index('data-testid="keep-theirs"')]
    assert "primary" in keep_theirs
    assert 'data-testid="keep-mine"' in page and 'data-testid="edit-again"' in page
    # keeping theirs is going back to the board, where their version already is
    board = reverse("session_board", args=[changed_meanwhile.group.edit_token, changed_meanwhile.pk])
    assert re.search(rf'<a [^>]*href="{re.escape(board)}"[^>]*data-testid="keep-theirs"', page)


def test_keep_mine_saves_mine_at_the_version_now_there_and_the_history_keeps_both(client, changed_meanwhile):
    session = changed_meanwhile
    conflict = client.post(edit_url(session), form_data(MINE, 1))

    # the keep-mine button posts the fields the player sent, at the version it was shown
    kept = conflict.context["kept"]
    data: dict[str, list[str]] = {}
    for name, value in kept:
        data.setdefault(name, []).append(value)
    data["version"] = [str(conflict.context["theirs"].version)]
    response = client.post(edit_url(session), data)

    assert response.status_code == 302
    hand = session.hands.get(number=1)
    assert hand.entry["points"] == 13 and hand.version == 3
    amended = Revision.objects.filter(hand=hand, action=Revision.AMENDED).order_by("pk")
    assert [(r.before["entry"]["points"], r.after["entry"]["points"]) for r in amended] == [(16, 18), (18, 13)]


def test_a_third_change_meanwhile_is_asked_about_again(client, changed_meanwhile):
    session = changed_meanwhile
    conflict = client.post(edit_url(session), form_data(MINE, 1))
    services.hand_amend(hand=session.hands.get(number=1), entry=dict(MADE_15_DIAMONDS, points=17), version=2)

    again = client.post(edit_url(session), form_data(MINE, conflict.context["theirs"].version))

    assert again.status_code == 409
    assert session.hands.get(number=1).entry["points"] == 17


def test_edit_again_opens_the_form_with_theirs(client, changed_meanwhile):
    form = client.get(edit_url(changed_meanwhile)).context["form"]

    assert form.initial["points"] == 18 and form.initial["version"] == 2


def test_a_hand_deleted_meanwhile_offers_no_keep_mine(client, changed_meanwhile):
    session = changed_meanwhile
    services.hand_delete(hand=session.hands.get(number=1))

    response = client.post(edit_url(session), form_data(MINE, 1))

    assert response.status_code == 409
    assert 'data-testid="keep-mine"' not in response.content.decode()


# --- the API: 409 stale_version carries the hand as it is now -------------------------------------------


@pytest.mark.parametrize("how", ["body", "if-match"])
def test_the_api_refuses_a_stale_edit_with_the_hand_as_it_is_now(changed_meanwhile, how):
    session = changed_meanwhile
    api = Api(session.group.edit_token)
    url = f"/api/v1/sessions/{session.pk}/hands/1"

    if how == "body":
        response = api.put(url, {**MINE, "version": 1})
    else:
        response = api.put(url, MINE, **{"If-Match": '"1"'})

    assert response.status_code == 409
    body = response.json()
    assert body["errors"][0]["code"] == "stale_version"
    assert body["hand"]["version"] == 2
    assert body["hand"]["entry"]["points"] == 18 and body["hand"]["result"]["payments"]["Ann"] == 14


def test_the_api_takes_the_version_from_if_match(changed_meanwhile):
    session = changed_meanwhile
    api = Api(session.group.edit_token)

    response = api.put(f"/api/v1/sessions/{session.pk}/hands/1", MINE, **{"If-Match": '"2"'})

    assert response.status_code == 200 and response.json()["version"] == 3


# --- an open form asks for the coming hand -----------------------------------------------------------


def test_the_coming_hand_says_what_another_phone_saved(client, db):
    session = SessionFactory()
    HandFactory(session=session)
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    response = client.get(next_url, {"shown": 1, "dealer": "Ed"})

    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-number="2"' in page and 'data-hand-count="1"' in page
    # asked, never followed: the hand saved with its payments, and the two answers
    assert "Another phone saved hand 1" in page and 'data-testid="saved-payments"' in page
    assert "That's the hand I'm entering" in page and "I'm entering the next hand" in page


def test_the_coming_hand_says_nothing_when_nothing_moved(client, db):
    session = SessionFactory()
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])
    dealer = client.get(next_url).context["dealer"]

    response = client.get(next_url, {"shown": 1, "dealer": dealer})

    assert "Another phone" not in response.content.decode()


def test_the_view_link_cannot_ask_for_the_coming_hand(client, db):
    session = SessionFactory()

    response = client.get(reverse("hand_next", args=[session.group.view_token, session.pk]))

    assert response.status_code in (403, 404)


def test_the_coming_hand_speaks_korean(client, db):
    session = SessionFactory()
    HandFactory(session=session)
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    response = client.get(next_url, {"shown": 1}, headers={"Accept-Language": "ko"})

    assert "다른 휴대폰에서 1번째 판을 저장했습니다" in response.content.decode()


def test_mine_refused_by_the_engine_offers_no_keep_mine(client, changed_meanwhile):
    # pagat: the lowest bid is 13; the edit was made (and went stale) on a 12
    response = client.post(edit_url(changed_meanwhile), form_data(dict(MINE, contract={"points": 12, "trump": "D"}), 1))

    assert response.status_code == 409
    page = response.content.decode()
    assert 'data-testid="mine-refused"' in page and 'data-testid="keep-mine"' not in page


def test_the_coming_hand_costs_four_queries(client, django_assert_num_queries, db):
    # every open form asks after every change at the table: it stays as cheap as this
    session = SessionFactory()
    HandFactory(session=session)
    HandFactory(session=session)
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    # 1 the session through the link (its group joined), 2 the latest live hand (the table flow
    # and "saved hand 2" both read it), 3 the hand in progress the form completes, 4 the one playing now
    with django_assert_num_queries(4):
        client.get(next_url, {"shown": 2, "dealer": "Ed", "in_progress": "1", "playing": ""})


# --- the hand in progress, while a form is open ----------------------------------------------------------

ANN_15_DIAMONDS = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}


def test_a_new_hand_form_hears_that_another_phone_recorded_the_contract(client, db):
    session = SessionFactory()
    services.contract_open(session=session, entry=ANN_15_DIAMONDS)
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    response = client.get(next_url, {"shown": 1, "what": "contract_changed"})

    assert "Another phone recorded the contract: Ann 15♦ is being played now." in response.content.decode()


def test_a_result_form_hears_that_another_phone_completed_its_hand(client, db):
    session = SessionFactory()
    contract, _ = services.contract_open(session=session, entry=ANN_15_DIAMONDS)
    services.contract_complete(contract=contract, result=MADE_15_DIAMONDS, version=contract.version)
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    response = client.get(next_url, {"shown": 1, "in_progress": contract.pk})

    page = response.content.decode()
    # the hand it completes is saved: asked as any hand saved at the form's number; a form that
    # goes on enters the next deal, its dealer the table's
    assert "Another phone saved hand 1" in page and "data-contract-done" in page
    assert f'data-dealer="{reads.next_state(session).dealer}"' in page


def test_a_result_form_hears_that_another_phone_threw_its_hand_in(client, db):
    session = SessionFactory()
    contract, _ = services.contract_open(session=session, entry=ANN_15_DIAMONDS)
    services.contract_abandon(contract=contract)
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    response = client.get(next_url, {"shown": 1, "in_progress": contract.pk})

    assert "Another phone threw this hand in. Saving yours records it as a new hand." in response.content.decode()


def test_a_correction_left_open_hears_that_another_phone_changed_its_hand(client, changed_meanwhile):
    session = changed_meanwhile
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    changed = client.get(next_url, {"editing": 1, "version": 1}).content.decode()
    unchanged = client.get(next_url, {"editing": 1, "version": 2}).content.decode()

    assert "Another phone changed hand 1 meanwhile: Ann 15♦ · Cy · took 18." in changed
    assert "Another phone" not in unchanged


@pytest.mark.parametrize("odd", ["²", "-1", "99999999999999999999", "\x00", "1.5"])
def test_the_coming_hand_shrugs_off_what_no_form_sends(client, db, odd):
    session = SessionFactory()
    next_url = reverse("hand_next", args=[session.group.edit_token, session.pk])

    response = client.get(next_url, {"shown": odd, "in_progress": odd, "editing": odd, "version": odd})

    assert response.status_code in (200, 400)
