"""Fault injection (issue 12, point 5 and "Done means"): the database or Redis going away
answers 503 or serves uncached, never a 500, and the ledger recovers by itself.

The database faults are real on PostgreSQL (a backend terminated mid-request, a session
deleted by another connection mid-write) and imitated on SQLite; the Redis faults stop
a real redis-server (the ``redis_server`` fixture; CI fails rather than skip without it).
"""

import contextlib
import io
import json
import logging
import threading
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError, connection, connections
from django.test import override_settings

from mighty_ledger import services
from mighty_ledger.models import Group, Hand, Revision, Session
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .conftest import Api, assert_error_shape


def failing(message: str):
    """An execute wrapper: every query fails as it does while PostgreSQL restarts."""
    def wrapper(execute, sql, params, many, context):
        raise OperationalError(message)
    return wrapper


# --- the database is down ------------------------------------------------------------------


def test_the_api_answers_503_with_retry_after_in_the_error_shape(session, edit):
    with connection.execute_wrapper(failing("server closed the connection unexpectedly")):
        response = edit.client.get(f"/api/v1/sessions/{session.pk}")

    assert_error_shape(response, 503, "database_unavailable")
    assert int(response["Retry-After"]) >= 1


def test_a_calculator_write_while_the_database_is_down_is_503_too(session, edit):
    with connection.execute_wrapper(failing("terminating connection due to administrator command")):
        response = edit.post(f"/api/v1/sessions/{session.pk}/hands", MADE_15_DIAMONDS)

    assert_error_shape(response, 503, "database_unavailable")


def test_a_page_shows_a_short_try_again_page(session, client):
    with connection.execute_wrapper(failing("could not connect to server: Connection refused")):
        response = client.get(f"/g/{session.group.view_token}/s/{session.pk}/")

    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert "Try again in a moment" in response.content.decode()
    assert response["Retry-After"]


def test_the_live_regions_drawn_before_are_not_given_while_the_database_is_down(session, client):
    """The live regions a later phone would get with their board region from the cache: without
    the link's check (the database is away) they are 503."""
    live = f"/g/{session.group.view_token}/s/{session.pk}/live/"
    assert client.get(live).status_code == 200  # drawn
    with connection.execute_wrapper(failing("server closed the connection unexpectedly")):
        response = client.get(live)

    assert response.status_code == 503 and response["Retry-After"]
    assert client.get(live).status_code == 200  # and back once it is


def wsgi_get(path: str, **environ) -> tuple[str, bytes]:
    """A request through Django's real WSGI handler, connection handling included (the test client skips it)."""
    status = []
    env = {"PATH_INFO": path, "REQUEST_METHOD": "GET", **environ}
    setup_testing_defaults(env)
    body = b"".join(WSGIHandler()(env, lambda s, headers, exc_info=None: status.append(s)))
    return status[0], body


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_mid_request_is_503_and_the_next_request_succeeds():
    session = SessionFactory()
    path = f"/api/v1/sessions/{session.pk}"
    auth = {"HTTP_AUTHORIZATION": f"Bearer {session.group.view_token}", "HTTP_HOST": "localhost"}
    dropped = []

    def drop_once(execute, sql, params, many, context):
        if not dropped:
            dropped.append(sql)
            # as a database restart does: the server ends this backend between two statements
            with psycopg_connection() as other:
                other.execute("SELECT pg_terminate_backend(%s)", [context["connection"].connection.info.backend_pid])
        return execute(sql, params, many, context)

    connection.ensure_connection()
    with connection.execute_wrapper(drop_once):
        status, body = wsgi_get(path, **auth)
    assert status.startswith("503"), body
    assert b"database_unavailable" in body

    status, body = wsgi_get(path, **auth)
    assert status.startswith("200"), body


@contextlib.contextmanager
def psycopg_connection():
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("server_side_binding", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as other:
        yield other


# --- a session deleted while a write is on its way -----------------------------------------


WRITES = [
    pytest.param("put", "/hands/1", {**MADE_15_DIAMONDS, "version": 1}, id="amend"),
    pytest.param("delete", "/hands/1", None, id="delete"),
    pytest.param("post", "/hands/1/restore", None, id="restore"),
    pytest.param("post", "/hands", MADE_15_DIAMONDS, id="record"),
]


def delete_session_before_the_write(session: Session, *, other_connection: bool):
    """An execute wrapper that deletes the session just before the write's first statement:
    the first one inside a transaction, or the first that writes."""
    done = []

    def wrapper(execute, sql, params, many, context):
        writes = sql.lstrip().upper().startswith(("INSERT", "UPDATE", "WITH", "DELETE"))
        if not done and (context["connection"].in_atomic_block or writes):
            done.append(sql)
            if other_connection:  # PostgreSQL: another request, committed while this one waits
                deleter = threading.Thread(target=lambda: (services.session_delete(
                    session=Session.objects.get(pk=session.pk)), connections.close_all()))
                deleter.start()
                deleter.join()
            else:
                Session.objects.filter(pk=session.pk).update(deleted_at="2026-01-01T00:00:00Z")
        return execute(sql, params, many, context)

    return wrapper


def _race(method, suffix, body, *, other_connection):
    session = SessionFactory()
    hand = HandFactory(session=session)
    if suffix.endswith("restore"):
        services.hand_delete(hand=hand)
    before = (Hand.objects.filter(session=session).count(), Revision.objects.filter(hand__session=session).count())
    api = Api(session.group.edit_token)
    url = f"/api/v1/sessions/{session.pk}{suffix}"
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=other_connection)):
        response = api.client.generic(method.upper(), url, data=b"" if body is None else json.dumps(body),
                                      content_type="application/json")
    assert_error_shape(response, 404)
    # nothing half-written: the hand and its revisions as they were
    assert (Hand.objects.filter(session=session).count(),
            Revision.objects.filter(hand__session=session).count()) == before
    return session


@pytest.mark.parametrize(("method", "suffix", "body"), WRITES)
@pytest.mark.django_db(transaction=True)
def test_a_write_that_loses_the_race_with_a_session_delete_is_404(method, suffix, body):
    _race(method, suffix, body, other_connection=False)


@pytest.mark.postgres_only
@pytest.mark.parametrize(("method", "suffix", "body"), WRITES)
@pytest.mark.django_db(transaction=True)
def test_a_session_deleted_by_another_connection_mid_write_is_404(method, suffix, body):
    session = _race(method, suffix, body, other_connection=True)
    assert Session.objects.get(pk=session.pk).deleted_at is not None


@pytest.mark.django_db(transaction=True)
def test_the_web_delete_that_loses_the_race_shows_a_404_page(client):
    session = SessionFactory()
    HandFactory(session=session)
    url = f"/g/{session.group.edit_token}/s/{session.pk}/h/1/delete/"
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=False)):
        response = client.post(url)

    assert response.status_code == 404
    assert Hand.objects.get(session=session).deleted_at is None


@pytest.mark.django_db(transaction=True)
def test_the_web_hand_form_that_loses_the_race_shows_a_404_page(client):
    from mighty_ledger.pages.forms import HandForm

    session = SessionFactory()
    data = {name: "on" if value is True else value
            for name, value in HandForm.initial_from(MADE_15_DIAMONDS).items() if value not in (None, [], False)}
    url = f"/g/{session.group.edit_token}/s/{session.pk}/hands/new/"
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=False)):
        response = client.post(url, data)

    assert response.status_code == 404
    assert not Hand.objects.filter(session=session).exists()


# the hand in progress: opened when the auction ends, completed or thrown in after the last trick
ANN_15_DIAMONDS = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
                   "partner_call": {"type": "card", "cards": ["AS"]}}
CONTRACT_WRITES = [
    pytest.param("/contracts", ANN_15_DIAMONDS, False, id="open"),
    pytest.param("/contracts/{id}/complete", {"partners": ["Cy"], "points": 16, "version": 1}, True, id="complete"),
    pytest.param("/contracts/{id}/abandon", {"version": 1}, True, id="abandon"),
]


@pytest.mark.parametrize(("suffix", "body", "opened"), CONTRACT_WRITES)
@pytest.mark.django_db(transaction=True)
def test_a_contract_write_that_loses_the_race_with_a_session_delete_is_404(suffix, body, opened):
    session = SessionFactory()
    contract = services.contract_open(session=session, entry=ANN_15_DIAMONDS)[0] if opened else None
    url = f"/api/v1/sessions/{session.pk}" + suffix.format(id=contract.pk if contract else 0)
    before = (session.contracts.values_list("status", flat=True).first(), Hand.objects.filter(session=session).count())
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=False)):
        response = Api(session.group.edit_token).post(url, body)

    assert_error_shape(response, 404)
    assert (session.contracts.values_list("status", flat=True).first(),
            Hand.objects.filter(session=session).count()) == before


def web_form(session, action: str) -> tuple[str, dict]:
    from mighty_ledger.pages.forms import HandForm

    base = f"/g/{session.group.edit_token}/s/{session.pk}"
    hand = {name: "on" if value is True else value
            for name, value in HandForm.initial_from(MADE_15_DIAMONDS, 1).items() if value not in (None, [], False)}
    return {
        "hand edit": (f"{base}/h/1/edit/", hand),
        "hand restore": (f"{base}/h/1/restore/", {}),
        "event form": (f"{base}/events/new/", {"kind": "deal_miss", "dealer": "Ed", "shown_by": "Bo", "fine": "0"}),
    }[action]


@pytest.mark.django_db(transaction=True)
def test_a_payment_that_loses_the_race_with_a_session_delete_is_404_on_both_faces(client):
    from mighty_ledger.models import Payment

    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session)
    body = {"payer": "Bo", "payee": "Ann", "amount": "1"}
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=False)):
        page = client.post(f"/g/{session.group.edit_token}/s/{session.pk}/payments/mark/", body)
    services.session_restore(session=Session.objects.get(pk=session.pk))
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=False)):
        api = Api(session.group.edit_token).post(f"/api/v1/sessions/{session.pk}/payments",
                                                 {"from": "Bo", "to": "Ann", "amount": "1"})

    assert page.status_code == 404
    assert_error_shape(api, 404)
    assert not Payment.objects.filter(session=session).exists()


@pytest.mark.parametrize("action", ["hand edit", "hand restore", "event form"])
@pytest.mark.django_db(transaction=True)
def test_every_web_write_that_loses_the_race_shows_a_404_page(client, action):
    session = SessionFactory()
    hand = HandFactory(session=session)
    if action == "hand restore":
        services.hand_delete(hand=hand)
    url, data = web_form(session, action)
    before = list(Hand.objects.filter(session=session).values_list("number", "version", "deleted_at"))
    with connection.execute_wrapper(delete_session_before_the_write(session, other_connection=False)):
        response = client.post(url, data)

    assert response.status_code == 404
    assert list(Hand.objects.filter(session=session).values_list("number", "version", "deleted_at")) == before


# --- Redis goes away ----------------------------------------------------------------------


@pytest.fixture
def warnings_logged():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("mighty_ledger")
    logger.addHandler(handler)
    yield stream
    logger.removeHandler(handler)


@override_settings(RATE_LIMITS_ENABLED=True)
def test_with_redis_down_pages_calculators_and_group_creation_still_answer(redis_cache, session, client,
                                                                            warnings_logged):
    board = f"/g/{session.group.view_token}/s/{session.pk}/"
    assert client.get(board).status_code == 200  # cached in Redis

    redis_cache.stop()

    assert client.get(board).status_code == 200
    assert client.get(f"/g/{session.group.edit_token}/").status_code == 200
    assert client.post("/api/v1/score", MADE_15_DIAMONDS | {"seats": session.seats},
                       content_type="application/json").status_code == 200
    assert client.post("/api/v1/next", {"seats": session.seats, "system": session.preset},
                       content_type="application/json").status_code != 500
    assert client.post("/g/new/", {"name": "Friday", "player_names": "Ann\nBo\nCy\nDi\nEd"}).status_code == 302
    assert client.post("/api/v1/groups", {"name": "Saturday"}, content_type="application/json").status_code == 201
    assert Group.objects.filter(name__in=["Friday", "Saturday"]).count() == 2
    assert "redis unavailable" in warnings_logged.getvalue()


def test_a_redis_outage_is_one_line_in_the_log_then_one_every_ten_seconds_with_the_count(
        redis_cache, session, client, warnings_logged, monkeypatch, settings, django_capture_on_commit_callbacks):
    """issue 49: as the database's outage is told (middleware.OutageNotes)."""
    from mighty_ledger.http import cache as fail_open
    from mighty_ledger.http import middleware
    from mighty_ledger.live import brokers

    monkeypatch.setattr(middleware, "redis_notes", middleware.OutageNotes(middleware.redis_notes.line))
    monkeypatch.setattr(fail_open, "redis_notes", middleware.redis_notes)
    # the broker's notes too, or whether it speaks depends on what the tests before it left there
    monkeypatch.setattr(brokers, "redis_notes", middleware.redis_notes)
    settings.REDIS_URL = redis_cache.url  # the live broker too: a hand's change is published there
    now = [1000.0]
    monkeypatch.setattr(middleware.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(fail_open.time, "monotonic", lambda: now[0])
    board = f"/g/{session.group.view_token}/s/{session.pk}/"
    redis_cache.stop()

    for second in range(25):  # a page a second, and a hand every five
        assert client.get(board).status_code == 200
        if second % 5 == 0:
            with django_capture_on_commit_callbacks(execute=True):
                services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
        now[0] += 1.0

    said = [line for line in warnings_logged.getvalue().splitlines() if "redis unavailable" in line]
    assert len(said) == 3, said  # at 0 s, 10 s and 20 s
    assert "redis unavailable: 1 cache get(s) went without it" in said[0]
    assert all("went without it" in line for line in said) and "Traceback" not in warnings_logged.getvalue()
    redis_cache.start()
    assert client.get(board).status_code == 200


@override_settings(RATE_LIMITS_ENABLED=True,
                   RATE_LIMITS={"calculators": {"rate": "3/m", "views": {"api:score": "POST"}}})
def test_two_workers_with_their_own_redis_clients_share_one_count(redis_cache, db):
    # Django's caches are per thread: two threads hold two Redis clients, as two gunicorn workers do
    answers = []

    def worker(times):
        client = Api().client
        for _ in range(times):
            answers.append(client.post("/api/v1/score", {}, format="json").status_code)

    for times in (2, 2):
        thread = threading.Thread(target=worker, args=(times,))
        thread.start()
        thread.join()

    assert answers.count(429) == 1 and len(answers) == 4
