"""The tests of the one store of one-time keys (mighty_ledger/http/request_keys.py), for every write:
the API's Idempotency-Key (test_api.py), the pages' form keys (test_forms.py, test_saved_forms.py),
requests with one key at the same moment (test_at_once.py), a connection cut mid-create
(test_cut_creates.py), and the store itself: what a key made outlives its answer (test_store.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from mighty_ledger.models import RequestKey
from tests.api.conftest import Api, assert_error_shape, hands_url, owed_by_bo_to_ann

__all__ = ["Api", "a_day_passes", "assert_error_shape", "hands_url", "owed_by_bo_to_ann"]


@pytest.fixture
def edit(session):
    return Api(session.group.edit_token)


def a_day_passes() -> None:
    """Every answer kept so far is older than the day the store keeps answers for."""
    RequestKey.objects.exclude(answered_at=None).update(answered_at=timezone.now() - timedelta(hours=24, minutes=1))
