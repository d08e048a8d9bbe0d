from pathlib import Path

import pytest

# Fixtures that open the database: tests using any of them get the `django_db` mark.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


# What the PostgreSQL pass of `make test` runs (`-m postgres`): what PostgreSQL does differently from
# SQLite. Writes at once and their locks, constraints and races, the migrations and what reads
# them back, the live broker; and every test marked postgres_only. Pages, templates and the API's
# shapes read the same rows either way and run on SQLite alone.
POSTGRES_PASS = (
    "tests/api/test_concurrency.py", "tests/api/test_in_progress.py", "tests/api/test_in_progress_concurrency.py",
    "tests/api/test_night_payments.py", "tests/api/test_unique_races.py",
    "tests/hardening/test_faults.py", "tests/hardening/test_null_fields.py", "tests/hardening/test_writes.py",
    "tests/keys/",
    "tests/live/",
    "tests/ops/test_consistency.py", "tests/ops/test_export_import.py", "tests/ops/test_nights_export.py",
    "tests/ops/test_restore.py", "tests/ops/test_seasons_export.py", "tests/ops/test_stored_entries_migration.py",
    "tests/web/test_edit_conflicts.py", "tests/web/test_hand_record.py", "tests/web/test_kept_counts.py", "tests/web/test_payments_model.py",
    "tests/web/test_same_hand.py", "tests/web/test_saves_at_once.py", "tests/web/test_season_changes.py",
    "tests/web/test_table_model_at_once.py",
)


def pytest_ignore_collect(collection_path, config):
    """The PostgreSQL pass (``-m postgres``) collects only the modules it can run: those in
    POSTGRES_PASS and those that mark a test postgres_only. Collecting the others only to
    deselect them cost each of its workers some seventeen seconds of CPU (the API's schemathesis
    tests build their cases as they are collected)."""
    if "postgres" not in (config.getoption("markexpr", "") or "").split():
        return None
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    where = collection_path.relative_to(Path(__file__).parent.parent).as_posix()
    if where.startswith(POSTGRES_PASS) or "postgres_only" in collection_path.read_text():
        return None
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    from django.conf import settings

    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    for item in items:
        if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.django_db)
        where = Path(str(item.fspath)).relative_to(Path(__file__).parent.parent).as_posix()
        if item.get_closest_marker("postgres_only") or where.startswith(POSTGRES_PASS):
            item.add_marker(pytest.mark.postgres)
        if item.get_closest_marker("postgres_only") and not on_postgres:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)"))


def pytest_unconfigure(config):
    """Django removes the SQLite test database at the end of the run, but not its WAL side files
    (-wal, -shm) when a connection outlives it (a live server's thread still holds one): each
    worker clears its own here, named after its process (settings.py), so a run leaves nothing
    in the checkout. An interrupted run's are ignored by git (.gitignore)."""
    from django.conf import settings

    if not settings.configured or not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return
    name = Path(settings.DATABASES["default"]["TEST"]["NAME"])
    for left in name.parent.glob(f"{name.name}*"):
        left.unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def _the_default_language_after_each_test():
    """A test that switches to Korean (a request with the language cookie, a rendered Korean
    page) leaves the thread's language behind; the next test starts in the default again."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _a_fresh_cache():
    """Each test starts with an empty cache. A test's rows are rolled back and their ids
    used again by the next test, so cached fragments keyed by a session's id and revision
    would otherwise outlive the rows they describe (ids are never reused in a real
    database). The counts and ratings kept in the database (settings.CACHES["kept"]) are
    rolled back with the rows, and their keys name the session's creation time too."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def django_assert_num_reads(db):
    """``django_assert_num_queries`` for what a read asks of the ledger's rows: the queries of the
    figures' own store (settings.CACHES["kept"], Django's database cache) and the savepoint each of
    its writes opens and releases are left out, so a count says which rows a page read, as when it
    was the cache's. Any other savepoint still counts."""
    from contextlib import contextmanager

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = settings.CACHES["kept"]["LOCATION"]

    class Reads(CaptureQueriesContext):
        @property
        def captured_queries(self):
            queries = [query["sql"] for query in super().captured_queries]

            def kept(index: int) -> bool:
                return 0 <= index < len(queries) and table in queries[index]
            # a store's write: SAVEPOINT, its statements on the table, RELEASE (or ROLLBACK TO) SAVEPOINT
            return [query for index, query in enumerate(super().captured_queries)
                    if not kept(index) and not ("SAVEPOINT" in query["sql"] and (kept(index + 1) or kept(index - 1)))]

    @contextmanager
    def reads(number: int):
        with Reads(connection) as captured:
            yield captured
        queries = captured.captured_queries
        assert len(queries) == number, f"{len(queries)} queries, not {number}:\n" + "\n".join(
            query["sql"] for query in queries)

    return reads


@pytest.fixture
def session(db):
    """A session of the default system with no hands yet, in a group of its own. A module that
    needs hands in it extends this fixture under the same name."""
    from tests.factories import SessionFactory

    return SessionFactory()


@pytest.fixture
def evening(db):
    """pagat example 1 at ₩100 a point: Ann (declarer) and Cy (partner) are owed, Bo, Di and Ed owe.
    A module that means another evening defines its own under the same name."""
    from tests.factories import HandFactory, SessionFactory

    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session)
    return session


@pytest.fixture
def no_rate_limits(settings):
    """Many requests from one test client at once: no rate limit counts them against each other."""
    settings.RATE_LIMITS_ENABLED = False
    settings.ALLOWED_HOSTS = ["testserver"]


@pytest.fixture
def keep_test_connection():
    """For requests sent through the WSGI app (schemathesis), as Django's test client does: a
    request's end must not close the test's connection (its transaction is rolled back at the end)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def edit_token(db):
    """A group with a session (id unknown to a request generator) and a hand, so authorised calls go deep."""
    from tests.factories import HandFactory, SessionFactory

    session = SessionFactory()
    HandFactory(session=session)
    return session.group.edit_token
