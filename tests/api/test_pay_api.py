"""Pay in one tap over the API (issue 39): PATCH a player's handles; ``pay`` on each transfer owed.

The handles are the edit link's: a view link may not change them and its settlement carries no
``pay`` links at all, as its pages show none.
"""

from __future__ import annotations

import pytest
import yaml

from mighty_ledger.models import Player
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .conftest import Api

pytestmark = pytest.mark.django_db

ANN = {"toss": "annkim", "kakaopay": "https://qr.kakaopay.com/Ej8ZBFvdw", "bank": "카카오뱅크",
       "account": "3333-01-1234567"}


@pytest.fixture
def evening():
    """Ann made 15 ♦ with Cy and 18 points at ₩100 a point: Bo and Di pay Ann ₩700, Ed pays Cy."""
    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session, entry=MADE_15_DIAMONDS | {"points": 18})
    return session


def player_url(session, name: str) -> str:
    return f"/api/v1/players/{Player.objects.get(group=session.group, name=name).pk}"


def settlement(api: Api, session) -> dict:
    answer = api.get(f"/api/v1/sessions/{session.pk}/settlement")
    assert answer.status_code == 200
    return answer.json()


def test_patch_keeps_the_handles_each_the_one_way_it_is_kept(evening):
    answer = Api(evening.group.edit_token).patch(player_url(evening, "Ann"), {"pay": ANN})

    assert answer.status_code == 200
    assert answer.json()["pay"] == {"toss": "annkim", "kakaopay": "https://qr.kakaopay.com/Ej8ZBFvdw",
                                    "bank": "kakaobank", "account": "3333-01-1234567"}


def test_each_handle_is_optional_and_an_empty_string_clears_it(evening):
    edit = Api(evening.group.edit_token)
    edit.patch(player_url(evening, "Ann"), {"pay": ANN})

    answer = edit.patch(player_url(evening, "Ann"), {"pay": {"toss": ""}})

    assert answer.json()["pay"]["toss"] == "" and answer.json()["pay"]["account"] == "3333-01-1234567"


@pytest.mark.parametrize(("pay", "field", "code"), [
    ({"toss": "ann kim"}, "pay.toss", "toss_id"),
    ({"kakaopay": "https://qr.kakaopay.com.evil.example/Ej8"}, "pay.kakaopay", "kakaopay_link"),
    ({"bank": "Bank of Nowhere", "account": "110243217120"}, "pay.bank", "bank_unknown"),
    ({"bank": "kb", "account": "110-2432-17x"}, "pay.account", "account_number"),
    ({"bank": "kb"}, "pay.account", "bank_without_account"),
])
def test_a_handle_that_is_not_one_is_refused_in_the_error_shape(evening, pay, field, code):
    answer = Api(evening.group.edit_token).patch(player_url(evening, "Ann"), {"pay": pay})

    assert answer.status_code == 400
    assert [(e["field"], e["code"]) for e in answer.json()["errors"]] == [(field, code)]
    assert Player.objects.get(group=evening.group, name="Ann").pay_toss == ""


def test_a_toss_id_that_is_not_text_is_refused(evening):
    answer = Api(evening.group.edit_token).patch(player_url(evening, "Ann"), {"pay": {"toss": 12345}})
    assert answer.status_code == 400 and answer.json()["errors"]


def test_the_view_link_cannot_patch(evening):
    answer = Api(evening.group.view_token).patch(player_url(evening, "Ann"), {"pay": ANN})
    assert answer.status_code == 403
    assert Player.objects.get(group=evening.group, name="Ann").pay_account == ""


def test_another_groups_player_is_not_found(evening):
    other = SessionFactory()
    answer = Api(evening.group.edit_token).patch(player_url(other, "Ann"), {"pay": ANN})
    assert answer.status_code == 404 and answer.json()["errors"][0]["code"] == "not_found"


def test_the_edit_link_gets_the_payees_buttons_on_each_transfer_owed(evening):
    edit = Api(evening.group.edit_token)
    edit.patch(player_url(evening, "Ann"), {"pay": ANN})

    owed = {(line["from"], line["to"]): line for line in settlement(edit, evening)["outstanding"]}

    assert owed[("Bo", "Ann")]["pay"] == [
        {"kind": "toss", "url": "https://toss.me/annkim/700", "text": "annkim"},
        {"kind": "kakaopay", "url": "https://qr.kakaopay.com/Ej8ZBFvdw", "text": "https://qr.kakaopay.com/Ej8ZBFvdw"},
        {"kind": "account", "url": None, "text": "카카오뱅크 3333-01-1234567 700원"},
    ]
    assert owed[("Ed", "Cy")]["pay"] == []  # Cy keeps no handle


def test_the_view_link_gets_no_pay_links(evening):
    Api(evening.group.edit_token).patch(player_url(evening, "Ann"), {"pay": ANN})

    answer = settlement(Api(evening.group.view_token), evening)

    assert all(line["pay"] == [] for line in answer["outstanding"])
    assert "3333" not in str(answer) and "toss.me" not in str(answer)


def test_the_view_links_history_names_no_handle(evening):
    Api(evening.group.edit_token).patch(player_url(evening, "Ann"), {"pay": ANN})
    history = Api(evening.group.view_token).get("/api/v1/revisions")
    assert history.status_code == 200 and "3333" not in history.content.decode()


def test_the_schema_has_patch_and_pay(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    patch = schema["paths"]["/api/v1/players/{player_id}"]["patch"]
    assert patch["operationId"] == "update_player"
    assert set(schema["components"]["schemas"]["PayHandles"]["properties"]) == {"toss", "kakaopay", "bank", "account"}
    kind = schema["components"]["schemas"]["PayLink"]["properties"]["kind"]
    kind = schema["components"]["schemas"][kind["$ref"].rsplit("/", 1)[1]] if "$ref" in kind else kind
    assert kind["enum"] == ["toss", "kakaopay", "account"]
    outstanding = schema["components"]["schemas"]["OutstandingTransfer"]
    assert "pay" in outstanding["required"]
