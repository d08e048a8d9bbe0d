"""Headers on every page (issue 12, point 11): a Content-Security-Policy without inline
scripts, and pages that show a link neither cached nor sent on as a Referer."""

import re

import pytest

from tests.factories import HandFactory, SessionFactory


@pytest.fixture
def pages(db):
    """Every kind of page a group's links open, with the edit link (it shows the most)."""
    session = SessionFactory()
    HandFactory(session=session)
    token, pk = session.group.edit_token, session.pk
    return [
        "/", "/rules/", "/rules/compare/", "/redeal/",
        f"/g/{token}/", f"/g/{token}/sessions/new/", f"/g/{token}/s/{pk}/", f"/g/{token}/s/{pk}/settle/",
        f"/g/{token}/s/{pk}/history/", f"/g/{token}/s/{pk}/rules/", f"/g/{token}/s/{pk}/hands/new/",
        f"/g/{token}/s/{pk}/events/new/", f"/g/{token}/s/{pk}/h/1/", f"/g/{token}/s/{pk}/h/1/edit/",
        f"/g/{token}/s/{pk}/live/",  # the board's live fragments: links in them too
    ]


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


def test_every_page_has_a_policy_that_runs_no_inline_script(client, pages):
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = directives(response)
        script_src = policy.get("script-src", policy["default-src"])
        assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, url
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"], url


SCRIPT_TAG = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)


def test_no_page_carries_an_inline_script_or_event_handler(client, pages):
    for url in pages:
        page = client.get(url).content.decode()
        for attributes, body in SCRIPT_TAG.findall(page):
            if 'type="application/json"' in attributes:
                continue  # data for a script (json_script: the table flow), never run by the browser
            assert "src=" in attributes and not body.strip(), f"inline script on {url}: {body[:80]}"
        assert not EVENT_HANDLER.search(page), f"inline event handler on {url}"


def test_pages_with_links_are_not_stored_and_send_no_referrer(client, pages):
    for url in pages:
        response = client.get(url)
        assert response["Cache-Control"] == "no-store", url
        assert response["Referrer-Policy"] == "no-referrer", url


def test_the_api_answer_that_holds_new_links_is_not_stored(client, db):
    response = client.post("/api/v1/groups", {"name": "Thursday"}, content_type="application/json")

    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"


def test_a_view_that_sets_its_own_caching_keeps_it(client, db):
    from tests.factories import GroupFactory

    response = client.get(f"/g/{GroupFactory().view_token}/export.json")

    assert response["Cache-Control"] == "private, no-store"


def test_the_api_docs_page_runs_under_the_policy(client):
    page = client.get("/api/docs/").content.decode()

    for attributes, body in SCRIPT_TAG.findall(page):
        assert "src=" in attributes and not body.strip(), body[:80]


def _form_post(client, url, **headers):
    """A group form sent as Chromium sends it from a no-referrer page: Origin null, no Referer."""
    client.get("/")  # the CSRF cookie
    token = client.cookies["csrftoken"].value
    return client.post(url, {"name": "Thursday", "csrfmiddlewaretoken": token}, **headers)


@pytest.mark.parametrize("secure", [False, True], ids=["http", "https"])
def test_the_pages_own_forms_pass_the_csrf_check_without_a_referer(db, secure):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = _form_post(client, "/g/new/", secure=secure, HTTP_ORIGIN="null", HTTP_SEC_FETCH_SITE="same-origin")

    assert response.status_code == 302


@pytest.mark.parametrize("site", ["cross-site", "same-site", None])
def test_a_form_from_another_site_is_still_refused(db, site):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    headers = {"HTTP_ORIGIN": "null"} | ({"HTTP_SEC_FETCH_SITE": site} if site else {})
    response = _form_post(client, "/g/new/", secure=True, **headers)

    assert response.status_code == 403
