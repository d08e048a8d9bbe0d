"""The app's own 404 page, in the reader's language with the way home, under `make run` too (DEBUG
on), where Django would show its developer page; and a 500 page in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from mighty_ledger.pages.views.errors import server_error


@pytest.fixture
def debug(settings):
    settings.DEBUG = True


@pytest.mark.parametrize("path", ["/no-such-page/", "/g/not-a-link/", "/rules/no-such-game/"])
@pytest.mark.parametrize(("language", "words"), [("en", "This page is not here"), ("ko", 'lang="ko"')])
def test_an_unknown_address_under_debug_is_the_apps_404_page(client, db, debug, path, language, words):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert response.status_code == 404
    assert 'data-testid="not-found"' in page and words in page
    assert f'href="{reverse("home")}"' in page
    assert "DEBUG = True" not in page


def test_under_debug_a_missing_slash_is_still_added(client, db, debug):
    response = client.get("/redeal")

    assert response.status_code == 301
    assert response["Location"] == "/redeal/"


def test_under_debug_the_api_still_answers_its_404_in_the_error_shape(client, db, debug):
    response = client.get("/api/v1/no-such-thing")

    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_without_debug_the_same_page(client, db):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="ko")

    assert response.status_code == 404
    assert "여기에는 페이지가 없습니다" in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [("en", "Something went wrong on our side"), ("ko", "서버에 문제가 생겼습니다")])
def test_a_server_fault_is_said_in_the_readers_language_with_the_way_home(db, language, words):
    request = RequestFactory().get("/")
    with translation.override(language):
        response = server_error(request)

    page = response.content.decode()
    assert response.status_code == 500
    assert words in page and 'data-testid="server-error"' in page
    assert f'href="{reverse("home")}"' in page


def test_a_view_that_fails_answers_the_500_page(db, settings):
    settings.ROOT_URLCONF = "tests.web.failing_urls"
    response = Client(raise_request_exception=False).get("/broken/", HTTP_ACCEPT_LANGUAGE="ko")

    assert response.status_code == 500
    assert "서버에 문제가 생겼습니다" in response.content.decode()
