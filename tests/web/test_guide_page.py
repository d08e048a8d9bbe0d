"""The players' guide (docs/table.md, docs/table.ko.md) read in the app, in the reader's language."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mighty_ledger.pages.guide import DOCS, guide_for


def test_the_guide_is_the_docs_own_file_rendered(client):
    page = client.get(reverse("guide"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert '<h1 id="using-it-at-a-table">Using it at a table</h1>' in page
    # a heading keeps GitHub's anchor, so the README's links into the guide land in the page too
    assert 'id="running-a-club-night"' in page
    assert "docs/table.md#running-a-club-night" in (DOCS.parent / "README.md").read_text()


def test_links_to_the_docs_for_whoever_hosts_the_app_become_words():
    html = guide_for("en").html

    assert 'href="api.md' not in html
    assert "<span>api.md</span>" in html


def test_the_guides_pictures_are_served_from_the_docs(client):
    html = guide_for("en").html
    picture = reverse("guide_picture", args=["big_screen.png"])

    assert f'src="{picture}"' in html
    response = client.get(picture)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"


@pytest.mark.parametrize("name", ["../settings.py", "table.md", "nothing.png", "images/../../manage.py", "BIG.PNG"])
def test_nothing_else_is_served_as_a_picture(client, name):
    assert client.get(reverse("guide_picture", args=[name])).status_code == 404


def test_the_korean_guide_is_the_korean_file_and_links_to_the_rest_in_english(client):
    page = client.get(reverse("guide"), HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "테이블에서 쓰는 법" in page
    assert 'lang="ko" data-testid="guide"' in page
    assert f'href="{reverse("guide")}?in=en"' in page


def test_the_english_guide_asked_for_from_a_korean_page(client):
    page = client.get(reverse("guide"), {"in": "en"}, HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "Using it at a table" in page
    assert 'lang="en" data-testid="guide"' in page
    # the page around it stays Korean and says why the guide is not
    assert 'data-testid="guide-in-english"' in page
    assert '<html lang="ko">' in page
