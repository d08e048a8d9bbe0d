"""The ledger as an app: the manifest a phone installs, the service worker it runs, where it opens,
and the entry the outbox sends for a hand entered offline."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from mighty_ledger.pages.views import app
from tests.factories import MADE_15_DIAMONDS

STATIC = Path(settings.BASE_DIR) / "static"


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", header[16:24])


def stylesheet_colour(name: str) -> str:
    return re.search(rf"{name}\s*:\s*(#[0-9a-fA-F]+)", (STATIC / "css" / "app.css").read_text())[1]


def hand_fields(entry: dict) -> dict:
    """The taps of the hand form for pagat example 1, as the form posts them."""
    return {
        "dealer": entry["dealer"], "declarer": entry["declarer"],
        "contract_points": entry["contract"]["points"], "contract_trump": entry["contract"]["trump"],
        "call_type": "card", "call_pick": "S", "call_rank": "A", "partners": entry["partners"][0],
        "points_side": "declarer", "points": entry["points"],
    }


# --- the manifest ----------------------------------------------------------------------------


def test_the_manifest_names_the_app_its_icons_and_opens_standalone(client):
    response = client.get(reverse("app_manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Mighty Ledger" and manifest["short_name"] == "Mighty"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == reverse("app_start") and manifest["scope"] == "/"
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


@pytest.mark.parametrize(("name", "size"), [("app-192.png", 192), ("app-512.png", 512), ("app-maskable-512.png", 512)])
def test_each_icon_is_a_png_of_the_size_the_manifest_says(name, size):
    assert png_size(STATIC / "icons" / name) == (size, size)


def test_the_manifest_and_the_page_wear_the_stylesheet_colours(client):
    manifest = json.loads(client.get(reverse("app_manifest")).content)
    assert manifest["theme_color"] == stylesheet_colour("--color-brand")
    assert manifest["background_color"] == stylesheet_colour("--color-background")
    page = client.get(reverse("home")).content.decode()
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert f'<link rel="manifest" href="{reverse("app_manifest")}">' in page


def test_the_manifest_speaks_the_players_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    manifest = json.loads(client.get(reverse("app_manifest")).content)
    assert manifest["lang"] == "ko"


# --- the service worker ----------------------------------------------------------------------


def service_worker_config(client) -> tuple[dict, str, object]:
    response = client.get(reverse("app_service_worker"))
    body = response.content.decode()
    first_line, source = body.split("\n", 1)
    config = json.loads(first_line.removeprefix("self.APP_SHELL = ").removesuffix(";"))
    return config, source, response


def test_the_service_worker_is_served_from_the_root_and_checked_on_every_visit(client):
    config, source, response = service_worker_config(client)
    assert reverse("app_service_worker") == "/sw.js"  # its scope is the folder it is served from
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert source == (STATIC / "js" / "sw.js").read_text()


def test_the_service_worker_keeps_the_pages_own_files_and_htmx(client):
    config, _source, _response = service_worker_config(client)
    kept = set(config["static"])
    for name in ("css/app.css", "js/outbox.js", "js/app_status.js", "js/drafts.js", "icons/app-192.png",
                 "django_htmx/htmx-2.min.js"):
        assert f"/static/{name}" in kept, name
    assert "/static/js/sw.js" not in kept, "the worker is served at /sw.js, never kept as a file"
    assert config["offline"] == reverse("app_offline") and reverse("systems_list") in config["pages"]


def test_in_production_the_service_worker_keeps_the_hashed_names(client, settings, tmp_path):
    from django.core.management import call_command

    # what `make serve` runs: hashed names, collected (Django resets the storage on both changes)
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    config, _source, _response = service_worker_config(client)
    app_css = [url for url in config["static"] if url.startswith("/static/css/app.")]
    assert len(app_css) == 1 and re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", app_css[0])
    outbox = [url for url in config["static"] if url.startswith("/static/js/outbox.")]
    assert len(outbox) == 1 and re.fullmatch(r"/static/js/outbox\.[0-9a-f]{12}\.js", outbox[0])


def test_a_changed_file_makes_a_new_version_that_announces_itself(client, settings, tmp_path):
    shutil.copytree(STATIC, tmp_path / "static")
    settings.STATICFILES_DIRS = [tmp_path / "static"]
    before, _source, _response = service_worker_config(client)
    outbox = tmp_path / "static" / "js" / "outbox.js"
    outbox.write_text(outbox.read_text() + "\n// a fix\n")
    after, _source, _response = service_worker_config(client)
    assert before["version"] != after["version"]


# --- where the installed app opens -------------------------------------------------------------


def test_the_app_opens_the_group_this_phone_used_last(client, session):
    client.cookies[app.LAST_GROUP_COOKIE] = session.group.edit_token
    response = client.get(reverse("app_start"))
    assert response.status_code == 302
    assert response["Location"] == reverse("group_page", args=[session.group.edit_token])


def test_without_a_group_yet_the_app_opens_the_home_page(client, db):
    response = client.get(reverse("app_start"))
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_a_rotated_link_opens_the_home_page_and_is_forgotten(client, db):
    client.cookies[app.LAST_GROUP_COOKIE] = "a-link-that-was-rotated"
    response = client.get(reverse("app_start"))
    assert response["Location"] == reverse("home")
    assert response.cookies[app.LAST_GROUP_COOKIE]["max-age"] == 0


def test_the_offline_page_says_what_can_be_read_without_a_connection(client, db):
    response = client.get(reverse("app_offline"))
    assert response.status_code == 200
    assert b"No connection" in response.content


# --- the outbox's entry -----------------------------------------------------------------------


def entry_url(session, token: str | None = None) -> str:
    return reverse("hand_entry", args=[token or session.group.edit_token, session.pk])


def test_a_hands_taps_become_the_entry_the_form_would_save(client, session):
    response = client.get(entry_url(session), hand_fields(MADE_15_DIAMONDS))
    assert response.status_code == 200
    assert response.json()["entry"] == MADE_15_DIAMONDS


def test_a_hand_missing_a_tap_is_refused_in_the_error_shape(client, session):
    fields = hand_fields(MADE_15_DIAMONDS)
    del fields["declarer"]
    response = client.get(entry_url(session), fields)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "declarer" and error["code"] == "required"
    assert error["message"].startswith("Declarer:")


def test_a_view_link_cannot_make_an_entry(client, session):
    response = client.get(entry_url(session, session.group.view_token), hand_fields(MADE_15_DIAMONDS))
    assert response.status_code == 403 and response.json()["errors"][0]["code"] == "view_only_link"


def test_an_unknown_link_makes_no_entry(client, session):
    response = client.get(entry_url(session, "no-such-link"), hand_fields(MADE_15_DIAMONDS))
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


def test_the_offline_page_answers_a_head_request_for_the_service_worker_asking_if_the_server_is_back(client, db):
    assert client.head(reverse("app_offline")).status_code == 200
