"""The forms as a phone shows them: only the fields the rules ask for, each problem under its own field."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from mighty_ledger.models import Group
from mighty_ledger.pages.forms import EventForm
from mighty_ledger.pages.forms.sessions import SessionStartForm, option_name
from scoring.presets import all_presets, resolve_system

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


def test_a_too_long_player_name_is_flagged_under_the_players_not_the_group_name(client, db):
    long_name = "B" * 41

    response = client.post(reverse("group_create"), {"name": "Thursday", "player_names": f"Ann\n{long_name}"})

    errors = response.context["form"].errors
    assert "name" not in errors
    assert errors["player_names"] == [
        f"“{long_name}” is too long: a player's name can be at most 40 characters."
    ]
    assert not Group.objects.exists()


def test_the_deal_miss_form_asks_for_a_fine_only_when_the_rules_have_one():
    without_fine = EventForm(seats=SEATS, system=resolve_system("pagat-standard"))
    with_fine = EventForm(seats=SEATS, system=resolve_system("pagat-standard", {"deal_miss": {"fine": 5}}))

    assert "fine" not in without_fine.fields
    assert with_fine.fields["fine"].initial == 5


def test_a_board_column_tells_apart_names_that_begin_alike():
    from mighty_ledger.pages.templatetags.ledger import short_name

    seats = ["Jiyoon", "Jiyoung", "Bo", "Dongmin", "Dongho"]

    assert [short_name(seat, seats) for seat in seats] == ["Jiyoo", "Jiyou", "Bo", "Dongm", "Dongh"]
    assert short_name("Dongmin", ["Dongmin", "Ann"]) == "Dong"


def test_deleting_a_hand_offers_undo_in_the_confirmation(client, db):
    from tests.factories import HandFactory, SessionFactory

    session = SessionFactory()
    HandFactory(session=session)
    token = session.group.edit_token

    response = client.post(reverse("hand_delete", args=[token, session.pk, 1]), follow=True)

    assert "Hand 1 was deleted." in response.text
    undo = reverse("hand_restore", args=[token, session.pk, 1])
    assert f'action="{undo}"' in response.text
    response = client.post(undo, {"next": "board"})
    assert response.url == reverse("session_board", args=[token, session.pk])
    assert session.hands.live().count() == 1


def test_a_view_link_on_an_edit_page_explains_itself(client, db):
    from tests.factories import SessionFactory

    session = SessionFactory()

    response = client.get(reverse("hand_new", args=[session.group.view_token, session.pk]))

    assert response.status_code == 403
    assert "This is a view-only link" in response.text
    assert reverse("group_page", args=[session.group.view_token]) in response.text


def test_replacing_a_link_asks_first(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group

    response = client.get(reverse("group_page", args=[group.edit_token]))

    assert "Everyone who has the old link loses it and needs the new one. Replace it?" in response.text


def test_a_new_session_starts_as_the_groups_last_one_was_set_up(client, db):
    from tests.factories import SessionFactory

    last = SessionFactory(seats=["Di", "Ann", "Bo", "Cy", "Ed"], overrides={"back_run": {"n": 10}},
                          stake_per_point=100, currency="KRW", rounding_unit=100)

    response = client.get(reverse("session_new", args=[last.group.edit_token]))

    form = response.context["form"]
    assert [form[f"seat_{i}"].value() for i in range(1, 6)] == ["Di", "Ann", "Bo", "Cy", "Ed"]
    assert form["preset"].value() == last.preset
    assert form["overrides"].value() == '{"back_run": {"n": 10}}'
    assert form["currency"].value() == "KRW"


def test_a_bad_rule_change_is_shown_unfolded(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group
    page = client.get(reverse("session_new", args=[group.edit_token]))
    data = {name: field.value() for name, field in ((f.name, f) for f in page.context["form"])
            if field.value() not in (None, "", False)}
    data |= {"played_on": "2026-11-23", "option__max_bid": "12"}  # below pagat's minimum of 13

    response = client.post(reverse("session_new", args=[group.edit_token]), data)

    assert response.context["form"].errors["option__min_bid"] == ["The minimum bid is above the maximum bid."]
    assert "<details open>" in response.text.replace("\n", "")


def test_a_rule_changed_with_its_control_reaches_the_session(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group
    page = client.get(reverse("session_new", args=[group.edit_token]))
    data = {name: field.value() for name, field in ((f.name, f) for f in page.context["form"])
            if field.value() not in (None, "", False)}
    data |= {"played_on": "2026-11-23", "option__back_run__n": "10", "option__doubles__no_trump": "never"}

    response = client.post(reverse("session_new", args=[group.edit_token]), data)

    assert response.status_code == 302
    new = group.sessions.order_by("-pk").first()
    assert new.overrides == {"back_run": {"n": 10}, "doubles": {"no_trump": "never"}}


def test_the_next_session_offers_the_last_ones_stakes_as_a_player_types_them(client, db):
    from decimal import Decimal

    from tests.factories import SessionFactory

    group = SessionFactory(stake_per_point=Decimal("100"), currency="KRW", rounding_unit=Decimal("100")).group

    page = client.get(reverse("session_new", args=[group.edit_token])).content.decode()

    # stored as 100.00: a won has no cents, and nobody typed them
    assert 'name="stake_per_point" value="100"' in page and 'name="rounding_unit" value="100"' in page


def test_choosing_another_system_draws_its_rules_and_keeps_the_seats(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory(overrides={"back_run": {"n": 10}}).group
    url = reverse("session_new", args=[group.edit_token])

    response = client.get(url, {"preset": "pagat-standard", "seat_1": "Ed", "seat_2": "Ann"})

    form = response.context["form"]
    assert form["seat_1"].value() == "Ed" and form["seat_2"].value() == "Ann"
    assert form["option__back_run__n"].value() == 11  # pagat's own, not last session's change


def test_one_seated_player_is_counted_in_the_singular(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group
    data = {"played_on": "2026-11-23", "preset": "pagat-standard", "seat_1": "Ann"}

    response = client.post(reverse("session_new", args=[group.edit_token]), data)

    assert "This system is for 5 players; 1 is seated. Tap 4 more players." in response.text


def test_a_first_session_starts_with_nobody_seated_so_the_taps_seat_them_in_order(client, db):
    from tests.factories import GroupFactory

    group = GroupFactory()
    for name in ["Ann", "Bo", "Cy", "Di", "Ed"]:
        group.players.create(name=name)

    response = client.get(reverse("session_new", args=[group.edit_token]))

    form = response.context["form"]
    assert [form[f"seat_{i}"].value() for i in range(1, 9)] == [None] * 8
    assert "Tap the players in clockwise order, starting anywhere" in response.text
    assert "{#" not in response.text and "{%" not in response.text  # no template comment left showing


def test_seats_filled_as_last_time_say_so_and_how_to_seat_anew(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group

    response = client.get(reverse("session_new", args=[group.edit_token]))

    assert "Seated as last time" in response.text and "tap Clear the seats" in response.text


def test_too_few_seated_are_told_how_many_more_to_tap_in_korean_too(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group
    data = {"played_on": "2026-11-23", "preset": "pagat-standard", "seat_1": "Ann", "seat_2": "Bo", "seat_3": "Cy"}

    english = client.post(reverse("session_new", args=[group.edit_token]), data)
    korean = client.post(reverse("session_new", args=[group.edit_token]), data, HTTP_ACCEPT_LANGUAGE="ko")

    assert "Tap 2 more players." in english.text
    assert "2명을 더 누르세요." in korean.text


def test_six_seated_for_a_five_player_system_are_shown_the_systems_for_six(client, db):
    from tests.factories import SessionFactory

    group = SessionFactory().group
    group.players.create(name="Fay")
    seats = {f"seat_{i}": name for i, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed", "Fay"], start=1)}

    response = client.post(reverse("session_new", args=[group.edit_token]),
                           {"played_on": "2026-11-23", "preset": "pagat-standard", **seats})

    assert "This system is for 5 players; 6 are seated. Take 1 player out. Systems for 6 players: " in response.text
    assert "Pagat 6 players, one knocked out" in response.text


def test_an_edit_is_undone_from_the_history(client, db):
    from mighty_ledger import services
    from mighty_ledger.models import Revision
    from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

    session = SessionFactory()
    hand = HandFactory(session=session, entry=MADE_15_DIAMONDS)
    services.hand_amend(hand=hand, entry=dict(MADE_15_DIAMONDS, points=13), version=hand.version)
    token = session.group.edit_token
    change = Revision.objects.get(hand=hand, action=Revision.AMENDED)

    history = client.get(reverse("session_history", args=[token, session.pk]))
    revert = reverse("hand_revert", args=[token, session.pk, 1, change.pk])
    assert f'action="{revert}"' in history.text

    response = client.post(revert, follow=True)

    assert "Hand 1 is back as it was before that change." in response.text
    hand.refresh_from_db()
    assert hand.entry["points"] == MADE_15_DIAMONDS["points"]
    assert client.post(reverse("hand_revert", args=[session.group.view_token, session.pk, 1, change.pk])).status_code == 403


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_rule_choice_of_every_system_reads_as_words_in_the_readers_language(language):
    for preset in all_presets():
        with translation.override(language):
            form = SessionStartForm(players=SEATS, initial={"preset": preset.slug})
            labels = [(path, value, str(label)) for path in form.option_paths
                      for value, label in getattr(form.fields[option_name(path)], "choices", [])]
        assert form.options_for == preset.slug and labels
        for path, value, label in labels:
            # the engine's sentence for the choice, never its value with the underscores taken out
            assert label not in (value, value.replace("_", " ")), (preset.slug, path, value)
            if language == "ko":
                assert any("가" <= letter <= "힣" for letter in label), (preset.slug, path, label)
