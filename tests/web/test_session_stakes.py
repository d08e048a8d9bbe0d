"""Starting a session played for money: every stake and rounding the form offers is taken.

The form's smallest rounding unit is a cent (0.01), and it refused 0.01 itself with
"Ensure this value is greater than or equal to 0.01": its minimum was the float 0.01,
which is a hair above the decimal 0.01 a player types.
"""

from decimal import Decimal

import pytest
from django.urls import reverse


@pytest.mark.parametrize("rounding_unit", ["0.01", "0.05", "0.25", "1", "500"])
def test_a_session_for_money_takes_every_rounding_from_a_cent(client, session, rounding_unit):
    group = session.group

    response = client.post(reverse("session_new", args=[group.edit_token]), {
        "played_on": "2026-11-26", "preset": "pagat-standard",
        **{f"seat_{i + 1}": name for i, name in enumerate(session.seats)},
        "stake_per_point": "1", "currency": "EUR", "rounding_unit": rounding_unit,
    })

    assert response.status_code == 302, response.context["form"].errors
    assert group.sessions.exclude(pk=session.pk).get().rounding_unit == Decimal(rounding_unit)


def test_a_rounding_below_a_cent_is_still_refused(client, session):
    response = client.post(reverse("session_new", args=[session.group.edit_token]), {
        "played_on": "2026-11-26", "preset": "pagat-standard",
        **{f"seat_{i + 1}": name for i, name in enumerate(session.seats)},
        "stake_per_point": "1", "currency": "EUR", "rounding_unit": "0",
    })

    assert response.status_code == 200
    assert response.context["form"].errors["rounding_unit"]
