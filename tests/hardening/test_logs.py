"""Capability tokens never reach a log (issue 12, point 9): Django's warnings and gunicorn's access log."""

import io
import logging
import runpy
import types
from datetime import timedelta
from pathlib import Path

import pytest
from gunicorn.config import Config

from mighty_ledger.http.redact import MaskedAccessLogger, mask_links

TOKEN = "k7Qm2xV9pL4sR8tW1yZ3bN6cF0dH5jG2aE9uI7oP4qY"


@pytest.mark.parametrize(("text", "masked"), [
    (f"/g/{TOKEN}/", "/g/***/"),
    (f"/g/{TOKEN}/s/3/h/1/edit/", "/g/***/s/3/h/1/edit/"),
    (f"https://ledger.example.com/g/{TOKEN}/export.json?x=1", "https://ledger.example.com/g/***/export.json?x=1"),
    (f"Bearer {TOKEN}", "Bearer ***"),
    ("/g/new/", "/g/new/"),
    ("/api/v1/score", "/api/v1/score"),
])
def test_mask_links(text, masked):
    assert mask_links(text) == masked


@pytest.fixture
def console():
    """What the root logger's console handler (settings.LOGGING) writes."""
    (handler,) = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_not_found_warning_is_logged_with_the_token_masked(client, db, console):
    client.get(f"/g/{TOKEN}/s/1/")

    written = console.getvalue()
    assert "Not Found: /g/***/s/1/" in written
    assert TOKEN not in written


def test_the_gunicorn_access_log_masks_paths_referers_and_bearer_tokens(tmp_path):
    log_file = tmp_path / "access.log"
    config = Config()
    config.set("accesslog", str(log_file))
    config.set("access_log_format", '%(h)s "%(r)s" %(s)s "%(f)s" %(U)s %({authorization}i)s')
    logger = MaskedAccessLogger(config)
    environ = {
        "REQUEST_METHOD": "GET", "RAW_URI": f"/g/{TOKEN}/s/1/", "PATH_INFO": f"/g/{TOKEN}/s/1/",
        "QUERY_STRING": "", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "192.0.2.5",
        "HTTP_REFERER": f"https://ledger.example.com/g/{TOKEN}/", "HTTP_AUTHORIZATION": f"Bearer {TOKEN}",
    }
    request = types.SimpleNamespace(headers=[("AUTHORIZATION", f"Bearer {TOKEN}")])
    response = types.SimpleNamespace(status="200 OK", sent=120, headers=[])

    logger.access(response, request, environ, timedelta(milliseconds=3))
    for handler in logger.access_log.handlers:
        handler.flush()

    written = log_file.read_text()
    assert '"GET /g/***/s/1/ HTTP/1.1" 200 "https://ledger.example.com/g/***/" /g/***/s/1/ ***' in written
    assert TOKEN not in written


def test_gunicorn_is_configured_with_the_masking_logger(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://ledger@db.internal:5432/ledger")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")

    config = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))

    assert config["logger_class"] == "mighty_ledger.http.redact.MaskedAccessLogger"


def test_the_two_masters_of_make_serve_each_have_their_own_control_socket(monkeypatch):
    # gunicorn's default is one socket per user, which the workers' and the streams' masters
    # would take from each other
    monkeypatch.setenv("DATABASE_URL", "postgres://ledger@db.internal:5432/ledger")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    conf = str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py")

    monkeypatch.delenv("SERVE_ROLE", raising=False)
    web = runpy.run_path(conf)["control_socket"]
    monkeypatch.setenv("SERVE_ROLE", "streams")
    streams = runpy.run_path(conf)["control_socket"]

    assert web != streams
    assert Path(web).name == "mighty-ledger-web-127.0.0.1_8000.ctl"
    assert Path(streams).name == "mighty-ledger-streams-127.0.0.1_8001.ctl"


def test_the_stream_server_runs_the_worker_that_masks_uvicorns_log():
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "-k mighty_ledger.live.worker.StreamWorker" in makefile
    assert "uvicorn_worker.UvicornWorker" not in makefile


def test_a_database_outage_is_one_line_in_the_log_not_a_traceback_per_request(client, db, console, monkeypatch):
    """issue 36: a ten-second outage under load wrote a traceback for each of 380 requests."""
    from django.db import OperationalError, connection

    from mighty_ledger.http import middleware
    from tests.factories import SessionFactory

    monkeypatch.setattr(middleware, "outage_notes", middleware.OutageNotes())
    session = SessionFactory()

    def failing(execute, sql, params, many, context):
        raise OperationalError("server closed the connection unexpectedly")

    with connection.execute_wrapper(failing):
        for _ in range(40):
            assert client.get(f"/g/{session.group.edit_token}/s/{session.pk}/").status_code == 503
            assert client.get(f"/api/v1/sessions/{session.pk}",
                              HTTP_AUTHORIZATION=f"Bearer {session.group.view_token}").status_code == 503

    written = console.getvalue()
    assert written.count("database unavailable") == 1, written[-2000:]
    assert "1 request(s) answered 503 (server closed the connection unexpectedly)" in written
    assert "Traceback" not in written and "Service Unavailable" not in written
    assert session.group.edit_token not in written


def test_an_outage_that_lasts_says_so_again_with_the_count(monkeypatch, caplog):
    from mighty_ledger.http import middleware

    notes = middleware.OutageNotes()
    now = [1000.0]
    monkeypatch.setattr(middleware.time, "monotonic", lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="mighty_ledger.http.middleware"):
        for _ in range(25):
            notes.note("request", ConnectionError("refused"))
            now[0] += 1.0
    said = [record.getMessage() for record in caplog.records]
    # at the first, then every OUTAGE_NOTE_SECONDS with what came meanwhile
    assert said == ["database unavailable: 1 request(s) answered 503 (refused)",
                    "database unavailable: 10 request(s) answered 503 (refused)",
                    "database unavailable: 10 request(s) answered 503 (refused)"]
