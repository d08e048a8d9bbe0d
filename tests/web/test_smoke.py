import os
import runpy
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "mighty_ledger" / "settings.py"


def settings_with_env(monkeypatch, **env):
    """Evaluate settings.py afresh under the given environment variables."""
    for name in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


def test_home_page_renders_in_english(client):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assert '<html lang="en">' in response.text
    assert "Mighty Ledger" in response.text
    assert "htmx" in response.text


def test_home_page_renders_in_korean(client):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ko")

    assert response.status_code == 200
    assert '<html lang="ko">' in response.text
    assert "마이티 장부" in response.text


def test_language_switcher_remembers_the_choice(client):
    response = client.post(reverse("set_language"), {"language": "ko", "next": "/"})
    assert response.status_code == 302

    assert '<html lang="ko">' in client.get(reverse("home")).text


def test_sqlite_is_the_default_and_waits_for_writers(monkeypatch):
    settings = settings_with_env(monkeypatch)

    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(settings["BASE_DIR"] / "db.sqlite3")
    assert database["OPTIONS"]["timeout"] == 20
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_database_url_chooses_the_database(monkeypatch):
    settings = settings_with_env(
        monkeypatch, DATABASE_URL="postgres://ledger:secret@db.example:5433/mighty"
    )

    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["HOST"], database["PORT"]) == ("mighty", "db.example", 5433)
    assert "transaction_mode" not in database.get("OPTIONS", {})


def test_redis_url_switches_the_cache_to_redis_that_fails_open(monkeypatch):
    settings = settings_with_env(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0")

    assert settings["CACHES"]["default"]["BACKEND"] == "mighty_ledger.http.cache.FailOpenRedisCache"
    assert settings["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/0"


def test_production_refuses_to_start_without_a_secret_key(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        settings_with_env(monkeypatch, DEBUG="false", ALLOWED_HOSTS="mighty.example")


@pytest.mark.django_db
def test_tests_run_on_the_database_that_database_url_names():
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")

    assert connection.vendor == ("postgresql" if on_postgres else "sqlite")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
