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


# --- issue 36: no page behind a link indexed, HEAD wherever GET is, a long URL in the error shape


def test_every_page_and_answer_behind_a_link_is_kept_out_of_search_engines(client, pages, session_with_links):
    token, pk = session_with_links
    behind_links = [url for url in pages if url.startswith("/g/")]
    for url in behind_links:
        assert client.get(url)["X-Robots-Tag"] == "noindex, nofollow", url
    api = client.get(f"/api/v1/sessions/{pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 200 and api["X-Robots-Tag"] == "noindex, nofollow"
    refused = client.get("/api/v1/sessions/1", HTTP_AUTHORIZATION="Bearer not-a-link")
    assert refused["X-Robots-Tag"] == "noindex, nofollow"
    # the pages anyone may find stay findable
    assert "X-Robots-Tag" not in client.get("/rules/")


def test_the_live_regions_keep_the_robots_header_drawn_or_from_the_cache(client, pages):
    live = next(url for url in pages if url.endswith("/live/"))
    assert client.get(live)["X-Robots-Tag"] == "noindex, nofollow"  # drawn
    assert client.get(live)["X-Robots-Tag"] == "noindex, nofollow"  # the board region from the cache


def test_head_is_answered_wherever_get_is(client, pages, session_with_links):
    token, pk = session_with_links
    for url in [*pages, f"/g/{token}/s/{pk}/live/", f"/g/{token}/s/{pk}/events/"]:
        got, head = client.get(url), client.head(url)
        assert head.status_code == got.status_code == 200, url
        assert head.content == b"", url
        assert head["Content-Type"] == got["Content-Type"], url
    api = client.head(f"/api/v1/sessions/{pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 200 and api.content == b""


def test_head_on_a_post_only_address_is_still_refused(client, session_with_links):
    token, pk = session_with_links
    assert client.head(f"/g/{token}/s/{pk}/settle/payments/").status_code in (404, 405)


@pytest.mark.parametrize("length", [4097, 8000])
def test_a_url_too_long_is_414_in_the_error_shape(client, db, length):
    from tests.hardening.conftest import assert_error_shape

    response = client.get("/api/v1/sessions?q=" + "x" * (length - len("/api/v1/sessions")))
    assert_error_shape(response, 414, "uri_too_long")
    page = client.get("/rules/?q=" + "x" * length)
    assert page.status_code == 414


def test_a_url_just_under_the_limit_is_answered(client, db):
    response = client.get("/api/v1/sessions/1?q=" + "x" * (4096 - len("/api/v1/sessions/1") - len("q=")))
    assert response.status_code != 414


@pytest.fixture
def session_with_links(pages):
    from mighty_ledger.models import Session

    session = Session.objects.get()
    return session.group.edit_token, session.pk


@pytest.mark.parametrize(("path", "headers", "status", "code"), [
    ("/api/v1/sessions/1", {"HTTP_HOST": "evil.example"}, 400, "bad_request"),  # Django's DisallowedHost
    ("/api/", {}, 404, "not_found"),  # outside api/v1/, where the API's own 404 answers
    ("/api/v1/groups", {"HTTP_HOST": "evil.example", "REQUEST_METHOD": "PUT"}, 400, "bad_request"),
])
def test_every_4xx_under_the_api_is_in_the_error_shape(client, db, path, headers, status, code):
    from tests.hardening.conftest import assert_error_shape

    response = client.generic(headers.pop("REQUEST_METHOD", "GET"), path, **headers)
    assert_error_shape(response, status, code)
