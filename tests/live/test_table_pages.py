"""The live table on the pages: the hand in progress from the auction to the last trick, and
"another phone saved first" before a second phone's hand is saved on top of the first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape, strip_tags

from mighty_ledger import services
from mighty_ledger.models import Contract
from mighty_ledger.pages.forms import HandForm
from tests.factories import MADE_15_DIAMONDS, HandFactory

pytestmark = pytest.mark.django_db

# pagat example 1's contract, as the declarer's phone enters it when the auction ends
ANN_15_DIAMONDS = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}


def url(name: str, session, *args, view: bool = False) -> str:
    token = session.group.view_token if view else session.group.edit_token
    return reverse(name, args=[token, session.pk, *args])


def form_data(entry: dict, **extra) -> dict:
    """What a player's taps post for ``entry`` (the form's own initial values), plus hidden fields."""
    data = {}
    for name, value in HandForm.initial_from(entry).items():
        if value is None or value == [] or value is False:
            continue
        data[name] = "on" if value is True else value
    return {**data, **extra}


def text(response) -> str:
    """The page's words as a player reads them."""
    return " ".join(strip_tags(response.content.decode()).split())


# --- the page follows the table -----------------------------------------------------------------


@pytest.mark.parametrize("page", ["session_board", "session_history", "session_settle"])
@pytest.mark.parametrize("view", [False, True])
def test_every_page_of_a_session_names_its_stream_and_the_revision_it_shows(client, session, page, view):
    HandFactory(session=session)
    session.refresh_from_db()

    response = client.get(url(page, session, view=view))

    # the board's latest hands come with each new hand's step on them, in the page's language
    asks = "?board=en" if page == "session_board" else ""
    assert f'data-live-stream="{url("session_events", session, view=view)}{asks}"' in response.text
    assert f'data-live-revision="{session.revision}"' in response.text
    # the page asks itself again with this ETag, the board its live fragments: 304 until the table changes
    held = client.get(url("session_live", session, view=view)) if page == "session_board" else response
    assert f'data-live-etag="{escape(held["ETag"])}"' in response.text
    assert "js/live.js" in response.text


def test_a_hand_page_follows_its_session_too(client, session):
    HandFactory(session=session)

    response = client.get(url("hand_detail", session, 1))

    assert f'data-live-stream="{url("session_events", session)}"' in response.text


def test_the_group_page_follows_the_group_stream(client, session):
    response = client.get(reverse("group_page", args=[session.group.view_token]))

    events = reverse("group_events", args=[session.group.view_token])
    assert f'data-live-stream="{events}"' in response.text


def test_the_hand_form_does_not_swap_itself_under_the_players_thumb(client, session):
    # it follows the stream to move its hand number and dealer (static/js/live_form.js), but no
    # region of the form is ever swapped under the player's thumb
    response = client.get(url("hand_new", session))

    assert 'data-live-regions="none"' in response.text
    assert "data-live-region=" not in response.text


# --- the hand in progress ---------------------------------------------------------------------------


def test_the_auction_over_every_phone_shows_the_contract_being_played(client, session):
    response = client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0))
    assert response.status_code == 302

    board = text(client.get(url("session_board", session, view=True)))

    assert "Ann 15♦, calling the ♠A, playing now" in board
    assert "What each side wins or pays" in board
    assert "Enter the result" not in board  # the view link only looks


def test_the_outlook_on_the_board_comes_from_the_engine(client, session):
    client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0))
    contract = session.contracts.get()

    (made_with_16,) = [row for row in contract.outlook["rows"] if row["from"] <= 16 <= row["to"]]
    board = text(client.get(url("session_board", session)))

    # the figures the scored hand will show: pagat example 1, 15♦ made with 16
    assert (made_with_16["declarer"], made_with_16["partner"], made_with_16["defender"]) == (10, 5, -5)
    assert "16 +10 +5 −5" in board


def test_after_the_last_trick_the_result_completes_it_as_the_next_hand(client, session):
    client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0))
    contract = session.contracts.get()

    form = client.get(url("contract_complete", session, contract.pk))
    assert form.context["form"]["in_progress"].value() == contract.pk
    assert form.context["form"]["declarer"].value() == "Ann"

    response = client.post(url("hand_new", session),
                           form_data(MADE_15_DIAMONDS, in_progress=contract.pk, seen_hand_count=0))

    assert response.status_code == 302
    contract.refresh_from_db()
    assert contract.status == Contract.COMPLETED and contract.hand.number == 1
    assert contract.hand.payments["Ann"] == 10
    assert "playing now" not in text(client.get(url("session_board", session)))


def test_a_hand_thrown_in_scores_nothing_and_leaves_the_board(client, session):
    client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0))
    contract = session.contracts.get()

    response = client.post(url("contract_abandon", session, contract.pk), {"version": contract.version}, follow=True)

    contract.refresh_from_db()
    assert contract.status == Contract.ABANDONED
    assert not session.hands.exists()
    assert "The hand was thrown in; nothing was scored." in text(response)
    assert "playing now" not in text(response)


def test_a_second_phone_opening_another_hand_is_asked_before_it_replaces_the_first(client, session):
    client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0))
    first = session.contracts.get()
    bo_16_nt = {**ANN_15_DIAMONDS, "declarer": "Bo", "contract": {"points": 16, "trump": "NT"}}

    asked = client.post(url("contract_new", session), form_data(bo_16_nt, seen_hand_count=0))

    assert asked.status_code == 409
    assert "Another phone already recorded the hand in progress: Ann 15♦." in text(asked)
    assert session.contracts.open().get() == first

    client.post(url("contract_new", session), form_data(bo_16_nt, seen_hand_count=0, replacing=first.pk))

    first.refresh_from_db()
    assert first.status == Contract.ABANDONED
    assert session.contracts.open().get().entry["declarer"] == "Bo"
    assert "Bo 16 NT" in text(client.get(url("session_board", session)))


def test_a_view_link_cannot_open_a_hand_in_progress(client, session):
    response = client.post(url("contract_new", session, view=True), form_data(ANN_15_DIAMONDS))

    assert response.status_code == 403
    assert not session.contracts.exists()


def test_an_illegal_contract_is_refused_beside_its_field(client, session):
    response = client.post(url("contract_new", session),
                           form_data({**ANN_15_DIAMONDS, "contract": {"points": 9, "trump": "D"}}))

    assert response.status_code == 200
    assert response.context["form"].errors
    assert not session.contracts.exists()


# --- "another phone saved first" ------------------------------------------------------------------------


def test_a_hand_saved_from_another_phone_first_is_shown_before_saving(client, session):
    opened_at = client.get(url("hand_new", session)).context["form"]["seen_hand_count"].value()
    HandFactory(session=session)  # phone A saves hand 1 while phone B is still tapping
    bo_made = {**MADE_15_DIAMONDS, "declarer": "Bo", "partners": ["Di"]}

    asked = client.post(url("hand_new", session), form_data(bo_made, seen_hand_count=opened_at))

    assert asked.status_code == 409
    # the question a phone with JavaScript asks over its form or its board, in the same words
    assert ("Hand 1 was just entered from another phone: Ann 15♦ made 16. "
            "Is that the hand you are entering? That's the hand I'm entering I'm entering the next hand "
            "The next hand keeps what you have tapped, as hand 2.") in text(asked)
    assert session.hands.count() == 1  # nothing saved yet
    assert asked.context["form"]["declarer"].value() == "Bo"  # B's taps are kept


def test_saving_it_too_after_the_warning_records_the_next_hand(client, session):
    HandFactory(session=session)
    bo_made = {**MADE_15_DIAMONDS, "declarer": "Bo", "partners": ["Di"]}

    response = client.post(url("hand_new", session), form_data(bo_made, seen_hand_count=0, confirm="1"))

    assert response.status_code == 302
    assert list(session.hands.order_by("number").values_list("number", "entry__declarer")) == [(1, "Ann"), (2, "Bo")]


def test_the_plain_save_after_the_warning_asks_again_and_adds_nothing(client, session):
    # the sticky Save is the easiest tap: only "also save mine" adds a second hand
    HandFactory(session=session)
    asked = client.post(url("hand_new", session), form_data(MADE_15_DIAMONDS, seen_hand_count=0))

    again = asked.context["form"]["seen_hand_count"].value()
    response = client.post(url("hand_new", session), form_data(MADE_15_DIAMONDS, seen_hand_count=again))

    assert response.status_code == 409
    assert session.hands.count() == 1


def test_the_warning_highlights_keeping_theirs_and_says_saving_adds_a_hand(client, session):
    HandFactory(session=session)
    asked = client.post(url("hand_new", session), form_data(MADE_15_DIAMONDS, seen_hand_count=0))

    page = asked.content.decode()
    keep = re.search(r'<a class="button primary"[^>]*data-testid="discard-mine"', page)
    save = re.search(r'<button type="submit" form="hand-form" name="confirm" value="1" data-testid="save-anyway">'
                     r"I'm entering the next hand</button>", page)
    assert keep and save and "as hand 2." in page
    assert 'class="primary" data-testid="save-hand"' not in page  # the sticky Save is not the highlighted one
    # the player's hand is previewed beside the question (pagat example 1), nothing "to fix"
    assert asked.context["preview"]["payments"]["Ann"] == 10
    assert 'data-preview-state="scored"' in page  # the preview's payments, not "cannot be saved"


def test_a_form_with_no_hand_saved_meanwhile_saves_at_once(client, session):
    HandFactory(session=session)

    response = client.post(url("hand_new", session), form_data(MADE_15_DIAMONDS, seen_hand_count=1))

    assert response.status_code == 302 and session.hands.count() == 2


def test_the_hand_in_progress_asks_the_same_when_a_hand_was_saved_meanwhile(client, session):
    HandFactory(session=session)

    asked = client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0))

    assert asked.status_code == 409
    assert "Hand 1 was just entered from another phone: Ann 15♦ made 16." in text(asked)
    assert not session.contracts.exists()
    client.post(url("contract_new", session), form_data(ANN_15_DIAMONDS, seen_hand_count=0, confirm="1"))
    assert session.contracts.open().exists()
