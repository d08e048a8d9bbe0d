"""An edit from a phone changes what the form asks and keeps the rest of the hand.

A hand recorded over the API may say more than the hand form asks: that the defenders
conceded, a client's own note. Edited from a phone (the dealer corrected, say), the hand
lost all of it: a conceded hand became a played one, its payments changed, and the note
was gone from the record.
"""

from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS

from .test_table import form_data

CONCEDED = MADE_15_DIAMONDS | {"points": 12, "outcome": "conceded", "conceded_by": "defenders",
                               "note": {"written_by": "the club's scorer app"}}


def edit(client, session, hand, entry):
    return client.post(reverse("hand_edit", args=[session.group.edit_token, session.pk, hand.number]),
                       form_data(entry, hand.version))


def test_correcting_the_dealer_keeps_the_concession_and_the_payments(client, session):
    hand, _ = services.hand_record(session=session, entry=CONCEDED)

    response = edit(client, session, hand, hand.entry | {"dealer": "Di"})

    assert response.status_code == 302, response.content
    amended = Hand.objects.get(pk=hand.pk)
    assert amended.entry["dealer"] == "Di"
    assert (amended.entry["outcome"], amended.entry["conceded_by"]) == ("conceded", "defenders")
    assert amended.payments == hand.payments


def test_a_clients_own_field_survives_an_edit_from_a_phone(client, session):
    hand, _ = services.hand_record(session=session, entry=CONCEDED)

    edit(client, session, hand, hand.entry | {"dealer": "Di"})

    assert Hand.objects.get(pk=hand.pk).entry["note"] == {"written_by": "the club's scorer app"}


def test_what_the_form_takes_away_is_taken_away(client, session):
    entry = MADE_15_DIAMONDS | {"bid": {"points": 13, "trump": "S"}, "discards": ["2C", "3C", "4C"],
                                "defender_points": 4}
    del entry["points"]
    hand, _ = services.hand_record(session=session, entry=entry)

    edit(client, session, hand, MADE_15_DIAMONDS)

    amended = Hand.objects.get(pk=hand.pk).entry
    assert "bid" not in amended and "discards" not in amended and "defender_points" not in amended
    assert amended["points"] == 16


# --- a deal miss: the fine and the hand shown ------------------------------------------------------

SHOWN = ["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "5H", "6H"]  # no point card: pagat's scale says redeal


def test_correcting_a_deal_misss_dealer_keeps_its_fine_and_the_hand_shown(client, session):
    # the API may record a fine the session's rules do not ask for, and the hand that was shown
    hand, _ = services.hand_record(session=session, kind=Hand.DEAL_MISS,
                                   entry={"dealer": "Ed", "shown_by": "Bo", "fine": 5, "cards": SHOWN})
    url = reverse("hand_edit", args=[session.group.edit_token, session.pk, hand.number])

    response = client.post(url, {"kind": "deal_miss", "dealer": "Di", "shown_by": "Bo", "version": hand.version})

    assert response.status_code == 302, response.content
    amended = Hand.objects.get(pk=hand.pk)
    assert amended.entry == {"dealer": "Di", "shown_by": "Bo", "fine": 5, "cards": SHOWN}
    assert amended.pot_after == hand.pot_after == 5


# --- the same correction made offline: the outbox asks the server for the entry, then replaces the hand ---


def test_a_correction_made_offline_keeps_the_rest_of_the_hand_too(client, session):
    from .test_app_shell import hand_fields

    hand, _ = services.hand_record(session=session, entry=CONCEDED | {"partner_call": {"type": "card", "cards": ["AS"]}})
    url = reverse("hand_entry", args=[session.group.edit_token, session.pk])

    response = client.get(url, hand_fields(hand.entry | {"dealer": "Di"}) | {"number": hand.number})

    assert response.status_code == 200, response.content
    entry = response.json()["entry"]
    assert entry["dealer"] == "Di" and entry["outcome"] == "conceded" and entry["note"] == CONCEDED["note"]


def test_the_entry_of_a_hand_not_there_is_404(client, session):
    from .test_app_shell import hand_fields

    url = reverse("hand_entry", args=[session.group.edit_token, session.pk])

    response = client.get(url, hand_fields(MADE_15_DIAMONDS) | {"number": 7})

    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


# --- the preview on the edit page ---------------------------------------------------------------------


def test_previewing_an_edit_without_javascript_still_edits_that_hand(client, session):
    hand, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS)
    edit_page = client.get(reverse("hand_edit", args=[session.group.edit_token, session.pk, 1])).text
    preview_url = edit_page.split('formaction="')[1].split('"')[0].replace("&amp;", "&")

    page = client.post(preview_url, form_data(hand.entry | {"points": 13}, hand.version)).text

    # the form the preview draws saves over hand 1, not as a new hand
    edit_url = reverse("hand_edit", args=[session.group.edit_token, session.pk, 1])
    assert f'action="{edit_url}"' in page


def test_the_preview_of_an_edit_scores_what_saving_it_keeps(client, session):
    hand, _ = services.hand_record(session=session, entry=CONCEDED)
    edit_page = client.get(reverse("hand_edit", args=[session.group.edit_token, session.pk, 1])).text
    preview_url = edit_page.split('hx-post="')[1].split('"')[0].replace("&amp;", "&")

    response = client.post(preview_url, form_data(hand.entry | {"dealer": "Di"}, hand.version),
                           headers={"HX-Request": "true"})

    assert response.context["preview"]["payments"] == hand.payments
