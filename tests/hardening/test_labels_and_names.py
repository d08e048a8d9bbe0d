"""Revisions name the kind of link, never part of its token (point 10); player names are
normalised before they are compared (point 14)."""

import importlib
import unicodedata

import pytest
from django.apps import apps as django_apps

from mighty_ledger import services
from mighty_ledger.models import Payment, Revision
from mighty_ledger.reads.actors import actor_label
from scoring.problems import InvalidInput
from tests.factories import MADE_15_DIAMONDS, GroupFactory, HandFactory, SessionFactory

from .conftest import Api

# --- point 10: "edit link", "view link", "API" -----------------------------------------------------------


def test_a_change_made_on_the_pages_says_edit_link_and_no_token(client, session):
    token = session.group.edit_token
    HandFactory(session=session)

    client.post(f"/g/{token}/s/{session.pk}/h/1/delete/")

    revision = Revision.objects.filter(subject="hand", action=Revision.DELETED).get()
    assert revision.by == "edit link"


def test_a_change_made_through_the_api_says_api(edit, session):
    edit.post(f"/api/v1/sessions/{session.pk}/hands", MADE_15_DIAMONDS)

    listed = Api(session.group.view_token).client.get("/api/v1/revisions").json()["results"]
    assert listed[0]["by"] == "API"


def test_a_change_made_on_the_page_offline_and_sent_by_its_outbox_says_edit_link(edit, session):
    # static/js/outbox.js sends a hand saved without signal through the API once the phone is online
    edit.post(f"/api/v1/sessions/{session.pk}/hands", MADE_15_DIAMONDS, **{"X-Mighty-Ledger-Outbox": "1"})

    listed = Api(session.group.view_token).client.get("/api/v1/revisions").json()["results"]
    assert listed[0]["by"] == "edit link"


def test_the_history_page_shown_to_a_view_link_holds_no_part_of_the_edit_token(client, session):
    token = session.group.edit_token
    client.post(f"/g/{token}/s/{session.pk}/events/new/", {"kind": "all_pass", "dealer": "Ed"})

    page = client.get(f"/g/{session.group.view_token}/s/{session.pk}/history/").content.decode()

    assert "edit link" in page
    assert f"…{token[-4:]}" not in page


@pytest.mark.parametrize(("stored", "shown"), [
    ("edit link …Ab3d", "edit link"),
    ("view link …-x_Q", "view link"),
    ("edit api …Zz09", "API"),
    ("system", "system"),
    ("API", "API"),
])
def test_labels_stored_with_a_token_fragment_are_shown_without_it(stored, shown):
    assert actor_label(stored) == shown


def test_the_migration_rewrites_old_labels_in_revisions_and_payments(session):
    Revision.objects.filter(session=session).update(by="edit link …Ab3d")
    Payment.objects.create(group=session.group, session=session, payer="Bo", payee="Ann", amount=1, by="edit api …Zz09")
    migration = importlib.import_module("mighty_ledger.migrations.0007_request_keys_and_actor_labels")

    migration.forget_token_fragments(django_apps, None)

    assert set(Revision.objects.filter(session=session).values_list("by", flat=True)) == {"edit link"}
    assert Payment.objects.get().by == "API"


# --- point 14: one player, however the name was typed ---------------------------------------------------

COMPOSED = unicodedata.normalize("NFC", "Álvaro")
DECOMPOSED = unicodedata.normalize("NFD", "Álvaro")


@pytest.mark.parametrize("again", [DECOMPOSED, f"  {COMPOSED} ", COMPOSED], ids=["nfd", "spaces", "same"])
def test_a_name_typed_another_way_is_the_same_player(db, again):
    group = GroupFactory()
    services.player_add(group=group, name=COMPOSED)

    with pytest.raises(InvalidInput) as refused:
        services.player_add(group=group, name=again)

    assert refused.value.problems[0].code == "duplicate_player"


def test_names_are_stored_in_nfc_trimmed_with_inner_spaces_collapsed(db):
    group = services.group_create(name="  Thursday \t table ", player_names=[f" {DECOMPOSED}   Ruiz "])

    assert group.name == "Thursday table"
    assert list(group.players.values_list("name", flat=True)) == [f"{COMPOSED} Ruiz"]


def test_a_group_listing_one_player_twice_in_two_spellings_is_refused(db):
    with pytest.raises(InvalidInput):
        services.group_create(name="Friday", player_names=[COMPOSED, DECOMPOSED])


def test_a_player_added_before_names_were_normalised_still_counts(db):
    group = GroupFactory()
    group.players.create(name=DECOMPOSED)

    with pytest.raises(InvalidInput):
        services.player_add(group=group, name=COMPOSED)


def test_seats_and_hands_match_a_name_spelt_another_way(db):
    seats = [COMPOSED, "Bo", "Cy", "Di", "Ed"]
    session = SessionFactory(seats=seats)
    other = services.session_start(group=session.group, preset="pagat-standard",
                                   seats=[DECOMPOSED, "Bo", "Cy", "Di", "Ed"], first_dealer=f" {DECOMPOSED}")

    hand, _ = services.hand_record(session=other, entry={**MADE_15_DIAMONDS, "declarer": DECOMPOSED})

    assert other.seats == seats and other.first_dealer == COMPOSED
    assert hand.entry["declarer"] == COMPOSED
    assert hand.payments[COMPOSED] > 0


# --- issue 21: names a table can read -------------------------------------------------------------

UNREADABLE = [
    pytest.param("\u200b", "missing", id="zero-width-space"),  # dropped: nothing is left
    pytest.param("\u0301", "invisible", id="lone-combining-mark"),
    pytest.param("\u200d\u2063", "invisible", id="format-characters-only"),
    pytest.param("\u3164", "invisible", id="hangul-filler"),
    pytest.param("Ann\u202e", "bidi_control", id="right-to-left-override"),
    pytest.param("\u2067Bo\u2069", "bidi_control", id="isolate"),
    pytest.param("Cy\u202a", "bidi_control", id="embedding"),
    pytest.param("Di\u200f", "bidi_control", id="right-to-left-mark"),
]


@pytest.mark.parametrize(("name", "code"), UNREADABLE)
def test_a_name_with_nothing_visible_or_a_direction_control_is_refused_by_the_service(db, name, code):
    with pytest.raises(InvalidInput) as refused:
        services.player_add(group=GroupFactory(), name=name)

    assert refused.value.problems[0].code == code


@pytest.mark.parametrize(("name", "code"), UNREADABLE[::4])
def test_the_api_refuses_it_in_the_error_shape(db, name, code):
    group = GroupFactory()
    response = Api(group.edit_token).post("/api/v1/players", {"name": name})

    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == code
    assert not group.players.exists()


def test_a_new_groups_players_are_checked_on_the_page_too(client, db):
    response = client.post("/g/new/", {"name": "Friday", "player_names": "Ann\nnnA\u202e\nCy\nDi\nEd"})

    assert response.status_code == 200
    assert "direction of the text" in response.content.decode()


@pytest.mark.parametrize("name", ["최지우", "Zoë", "José María", "اسم", "👩\u200d👩\u200d👧"])
def test_names_from_every_script_are_still_welcome(db, name):
    assert services.player_add(group=GroupFactory(), name=name).name == name


def test_a_zero_width_space_does_not_make_a_second_ann(db):
    group = GroupFactory()
    services.player_add(group=group, name="Ann")

    with pytest.raises(InvalidInput) as refused:
        services.player_add(group=group, name="An\u200bn")

    assert refused.value.problems[0].code == "duplicate_player"


# --- 'pot' is the deal-miss pot's name in every settlement --------------------------------------


def test_a_player_cannot_be_called_pot_by_the_api_or_a_new_groups_list(db):
    group = GroupFactory()
    one = Api(group.edit_token).post("/api/v1/players", {"name": " pot "})
    many = Api(None).post("/api/v1/groups", {"name": "Friday", "players": ["Ann", "pot"]})

    for refused in (one, many):
        assert refused.status_code == 400
        assert refused.json()["errors"][0]["code"] == "reserved_name"
        assert "deal-miss pot" in refused.json()["errors"][0]["message"]
    assert not group.players.exists()


def test_nor_on_the_page(client, db):
    response = client.post("/g/new/", {"name": "Friday", "player_names": "Ann\nBo\nCy\nDi\npot"})

    assert response.status_code == 200
    assert "deal-miss pot" in response.content.decode()


def test_the_engine_refuses_a_seat_called_pot(db):
    from scoring.interface import score_hand

    with pytest.raises(InvalidInput) as refused:
        score_hand({**MADE_15_DIAMONDS, "system": "pagat-standard", "seats": ["Ann", "Bo", "Cy", "Di", "pot"]})

    assert "reserved_name" in {problem.code for problem in refused.value.problems}


@pytest.mark.parametrize("name", ["Pot", "pots", "팟"])
def test_other_names_like_it_are_welcome(db, name):
    assert services.player_add(group=GroupFactory(), name=name).name == name
