"""A group's seasons travel with its export, and a document from before seasons still imports."""

import datetime

from mighty_ledger.reads.exports import group_export
from mighty_ledger.services.imports import group_import
from mighty_ledger.services.seasons import season_create
from tests.factories import SessionFactory


def test_the_seasons_come_back_with_the_group(db):
    group = SessionFactory().group
    season_create(group=group, name="가을", starts=datetime.date(2026, 9, 1))
    season_create(group=group, name="겨울", starts=datetime.date(2026, 12, 1))

    copy = group_import(document=group_export(group, include_tokens=False), new_tokens=True)

    assert list(copy.seasons.values_list("name", "starts")) == list(group.seasons.values_list("name", "starts"))


def test_a_document_from_before_seasons_imports_without_any(db):
    document = group_export(SessionFactory().group, include_tokens=False)
    del document["seasons"]

    assert not group_import(document=document, new_tokens=True).seasons.exists()
