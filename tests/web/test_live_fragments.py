"""What a live scoreboard fetches when its stream says the session changed: its live regions, the
same bytes for every phone holding the same link, drawn once per revision and answered with 304
to a phone that holds them (mighty_ledger/pages/views/sessions.py session_live)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from mighty_ledger import reads, services
from mighty_ledger.models import Group
from tests.drawn import Drawn
from tests.factories import MADE_15_DIAMONDS, SessionFactory, bulk_hands

pytestmark = pytest.mark.django_db

# pagat example 1's contract, as the declarer's phone enters it when the auction ends
ANN_15_DIAMONDS = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}


def url(name: str, session, *, view: bool = False) -> str:
    token = session.group.view_token if view else session.group.edit_token
    return reverse(name, args=[token, session.pk])


def phone() -> Client:
    """A phone that opened the board: its own CSRF cookie, as every visitor has."""
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client


def test_two_phones_on_one_link_get_the_same_bytes(session):
    bulk_hands(session, 3)
    first, second = phone(), phone()
    first.get(url("session_board", session))
    second.get(url("session_board", session))
    assert first.cookies["csrftoken"].value != second.cookies["csrftoken"].value

    one = first.get(url("session_live", session))
    other = second.get(url("session_live", session))

    assert one.status_code == other.status_code == 200
    assert one.content == other.content and one["ETag"] == other["ETag"]
    assert 'id="hand-3"' in one.text and 'data-live-region="board"' in one.text
    assert dict(one.items()) == dict(other.items())  # CSP, no-store, no-referrer, ETag, language: alike
    assert {"Content-Security-Policy", "Referrer-Policy", "ETag", "Cache-Control"} <= set(dict(one.items()))


def test_the_fragments_carry_nothing_of_the_visitor(client, session):
    bulk_hands(session, 3)
    services.contract_open(session=session, entry=dict(ANN_15_DIAMONDS))
    page = client.get(url("session_board", session))
    assert "csrfmiddlewaretoken" in page.text  # the page's own forms carry the visitor's token

    fragments = client.get(url("session_live", session))

    # the hand in progress is in them, its throw-in form without a token: the phone adds its own
    assert "playing now" in fragments.text and 'data-testid="abandon-hand"' in fragments.text
    for visitor in ("csrfmiddlewaretoken", "request_key", "X-CSRFToken", page.cookies["csrftoken"].value):
        assert visitor not in fragments.text
    assert "csrftoken" not in fragments.cookies and fragments["Cache-Control"] == "no-store"


def test_a_phone_holding_the_fragments_gets_304_and_a_write_makes_new_ones(client, session):
    bulk_hands(session, 3)
    # the board names its fragments and the ETag of this revision's: the first ask is already a 304
    page = client.get(url("session_board", session))
    etag = re.search(r'data-live-etag="([^"]*)"', page.text).group(1).replace("&quot;", '"')
    assert f'data-live-fragments="{url("session_live", session)}"' in page.text

    assert client.get(url("session_live", session), HTTP_IF_NONE_MATCH=etag).status_code == 304

    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    changed = client.get(url("session_live", session), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert 'id="hand-4"' in changed.text


def test_a_phone_holding_the_fragments_gets_304_with_the_same_headers(session):
    bulk_hands(session, 3)
    first = Client().get(url("session_live", session))
    held = Client().get(url("session_live", session), HTTP_IF_NONE_MATCH=first["ETag"])
    assert held.status_code == 304 and held.content == b""
    assert held["ETag"] == first["ETag"] and held["Content-Security-Policy"] == first["Content-Security-Policy"]
    assert held["Cache-Control"] == "no-store"


def test_a_phone_that_applied_a_hands_step_polls_for_one_query(session, django_assert_num_queries):
    """No phone fetched the revision the step brought: its ETag is answered 304 all the same."""
    from mighty_ledger.pages.views.board_steps import board_step_for

    bulk_hands(session, 3)
    Client().get(url("session_live", session))
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    session.refresh_from_db()
    # the ETag a phone holds after applying the hand's step
    stepped = board_step_for(session.group.edit_token, session.pk, session.revision, "en")["etag"]

    with django_assert_num_queries(1):  # the link's query and nothing more
        polled = Client().get(url("session_live", session), HTTP_IF_NONE_MATCH=stepped)

    full = Client().get(url("session_live", session))
    assert polled.status_code == 304 and polled.content == b""
    assert full.status_code == 200 and polled["ETag"] == full["ETag"] == stepped
    def shared(answer) -> dict:  # CSP, no-store, no-referrer, the language: what is not of the body
        return {name: value for name, value in answer.items() if name not in ("Content-Type", "Content-Length")}

    assert shared(polled) == shared(full)


def test_a_rotated_link_a_deleted_session_or_group_stop_at_once(session):
    bulk_hands(session, 3)
    old = session.group.edit_token
    Client().get(url("session_live", session))  # drawn under the old link
    services.group_rotate_link(group=session.group, which="edit")
    assert Client().get(reverse("session_live", args=[old, session.pk])).status_code == 404

    Client().get(url("session_live", session, view=True))
    services.session_delete(session=session)
    assert Client().get(url("session_live", session, view=True)).status_code == 404

    services.session_restore(session=session)
    Client().get(url("session_live", session, view=True))
    Group.objects.filter(pk=session.group.pk).update(deleted_at=session.created_at)
    assert Client().get(url("session_live", session, view=True)).status_code == 404


def test_each_link_has_its_own_fragments_with_its_own_links(client, session):
    bulk_hands(session, 3)

    edit = client.get(url("session_live", session))
    view = client.get(url("session_live", session, view=True))

    assert edit["ETag"] != view["ETag"]
    assert session.group.edit_token in edit.text and 'data-testid="enter-hand"' in edit.text
    assert session.group.edit_token not in view.text and 'data-testid="enter-hand"' not in view.text


def test_the_fragments_follow_the_language(client, session):
    bulk_hands(session, 3)

    english = client.get(url("session_live", session), HTTP_ACCEPT_LANGUAGE="en")
    korean = client.get(url("session_live", session), HTTP_ACCEPT_LANGUAGE="ko")

    assert english["ETag"] != korean["ETag"] and english.content != korean.content
    assert korean["Content-Language"] == "ko"


def test_the_chart_comes_as_its_frame_drawn_when_in_view(client, session):
    """Most phones at the table look at the rows: the chart below them is drawn when it is seen."""
    bulk_hands(session, 3)

    fragments = client.get(url("session_live", session))

    chart = fragments.text.split('data-live-region="chart"')[1].split("</section>")[0]
    assert 'hx-trigger="intersect once"' in chart and 'data-testid="score-chart"' not in chart
    assert reverse("session_chart", args=[session.group.edit_token, session.pk]) in chart


def test_the_chart_is_drawn_once_per_revision_for_every_phone(session, django_assert_num_queries):
    bulk_hands(session, 3)
    chart_url = url("session_chart", session)
    first = phone().get(chart_url, HTTP_HX_REQUEST="true")
    assert 'data-testid="score-chart"' in first.text

    with django_assert_num_queries(1):  # the link and session: the chart from the cache
        second = phone().get(chart_url, HTTP_HX_REQUEST="true")
    assert second.content == first.content

    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    assert phone().get(chart_url, HTTP_HX_REQUEST="true").text.count('class="series-marker"') > \
        first.text.count('class="series-marker"')


@pytest.mark.parametrize("hands", [5, 300])
def test_once_drawn_the_fragments_cost_two_queries_whatever_the_hands(session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    Client().get(url("session_live", session))  # the first phone after the change draws them

    with django_assert_num_queries(2):
        # 1. the session with its group, by the link (its right and the session's revision)
        # 2. the hand in progress; the board region of the revision from the cache, no rows read
        response = Client().get(url("session_live", session))
    assert response.status_code == 200 and f'id="hand-{hands}"' in response.text


def test_a_made_up_page_of_earlier_hands_makes_no_new_fragments(client, session, django_assert_num_queries):
    bulk_hands(session, 3)
    client.get(url("session_live", session))

    # the link and session, the hand in progress: the board region of the revision from the cache, no rows read
    with django_assert_num_queries(2):
        response = client.get(url("session_live", session) + "?before=99999")
    assert 'id="hand-3"' in response.text


def test_an_unknown_link_or_session_is_404(client, session):
    assert client.get(reverse("session_live", args=["x" * 43, session.pk])).status_code == 404
    assert client.get(reverse("session_live", args=[session.group.view_token, session.pk + 99])).status_code == 404


def _the_next_hand(session) -> None:
    """pagat example 1 again, dealt by whoever deals next."""
    dealer = reads.next_state(session).dealer
    services.hand_record(session=session, entry={**MADE_15_DIAMONDS, "dealer": dealer})
    session.refresh_from_db()


def test_after_a_hand_the_latest_row_is_marked_by_the_stylesheet_not_in_the_row():
    """A step adds one row to a board that stands: the row that stops being the latest must read
    the same, so no row says it is the latest."""
    session = SessionFactory()
    bulk_hands(session, 6)
    Client().get(url("session_live", session))
    _the_next_hand(session)

    fragments = Client().get(url("session_live", session))

    assert '<tr id="hand-7">' in fragments.text and '<tr id="hand-6">' in fragments.text
    assert 'class="last"' not in fragments.text


def test_the_parts_that_show_nothing_of_the_hand_are_drawn_once():
    """'This phone is me' and the columns' heads show the seats: a hand changes neither. Who deals
    next comes round again with the seats: drawn once for each dealer."""
    session = SessionFactory()
    bulk_hands(session, 6)
    Client().get(url("session_live", session))
    seats = len(session.seats)
    for _ in range(seats):  # once round the table: each dealer's "next" drawn once
        _the_next_hand(session)
        Client().get(url("session_live", session))

    _the_next_hand(session)
    with Drawn() as drawn:
        fragments = Client().get(url("session_live", session))

    assert drawn.count("me_board") == drawn.count("declarer_start") == 0
    dealer = reads.next_state(session).dealer
    assert f'data-next-dealer="{dealer}"' in fragments.text and f"<strong>{dealer}</strong> deals" in fragments.text
    assert f'id="hand-{session.hand_count}"' in fragments.text


def test_who_deals_next_follows_a_hand_in_progress_and_its_end(client, session):
    """The 'record the contract' button is part of the next-hand card: it goes while a hand is
    being played and comes back once it is over, though the dealer is the one seen before."""
    bulk_hands(session, 3)
    assert 'data-testid="start-hand"' in client.get(url("session_live", session)).text

    contract, _ = services.contract_open(session=session, entry=dict(ANN_15_DIAMONDS))
    assert 'data-testid="start-hand"' not in client.get(url("session_live", session)).text

    services.contract_abandon(contract=contract, version=contract.version)
    assert 'data-testid="start-hand"' in client.get(url("session_live", session)).text


def test_a_first_visit_straight_to_the_board_gets_its_csrf_secret_and_then_304(session):
    bulk_hands(session, 3)
    board = url("session_board", session)
    newcomer = Client(enforce_csrf_checks=True)

    first = newcomer.get(board)
    assert first.status_code == 200 and newcomer.cookies["csrftoken"].value
    assert "csrfmiddlewaretoken" in first.text
    # the page's ETag is for the secret its cookie now keeps: the same phone asking again holds it
    assert newcomer.get(board, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # another phone's secret is another page (its forms carry its own token)
    assert Client().get(board, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
