"""Production settings refuse unsafe values and pass Django's deployment checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items()
            if k not in ("SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "DATABASE_URL", "REDIS_URL")
            and not k.startswith("SECURE_")}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120)


def production(**overrides: str) -> dict[str, str]:
    return {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "ledger.example.com", **overrides}


SETUP = ["-c", "import django; django.setup()"]


def test_production_refuses_to_start_without_a_secret_key():
    env = production()
    del env["SECRET_KEY"]

    started = run(SETUP, DJANGO_SETTINGS_MODULE="mighty_ledger.settings", **env)

    assert started.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off" in started.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    env = production()
    del env["ALLOWED_HOSTS"]

    started = run(SETUP, DJANGO_SETTINGS_MODULE="mighty_ledger.settings", **env)

    assert started.returncode != 0
    assert "ALLOWED_HOSTS must be set" in started.stderr


# Every check once, in the default configuration (drf-spectacular's builds the whole API schema);
# the others change only what the security checks read.
SECURITY_ONLY = ["--tag", "security"]


@pytest.mark.parametrize(("hsts", "tags"), [
    pytest.param({}, [], id="hsts-a-year-by-default-over-https"),
    pytest.param({"SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https"}, SECURITY_ONLY,
                 id="hsts-a-year-behind-a-tls-proxy"),
    pytest.param({"SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
                  "SECURE_HSTS_PRELOAD": "true"}, SECURITY_ONLY, id="hsts-a-year-with-preload"),
])
def test_deployment_checks_are_clean(hsts, tags):
    checked = run(["manage.py", "check", "--deploy", *tags, "--fail-level", "WARNING"], **production(**hsts))

    assert checked.returncode == 0, checked.stderr + checked.stdout
    assert "System check identified no issues" in checked.stdout


@pytest.mark.parametrize("hsts", [
    pytest.param({"SECURE_HSTS_SECONDS": "0"}, id="hsts-turned-off-over-https"),
    pytest.param({"SECURE_SSL_REDIRECT": "false"}, id="a-plain-http-trial"),
])
def test_the_deployment_check_says_when_hsts_is_off(hsts):
    """issue 36: the warning was silenced while HSTS was off by default."""
    checked = run(["manage.py", "check", "--deploy", *SECURITY_ONLY], **production(**hsts))

    assert checked.returncode == 0, checked.stderr
    assert "security.W004" in checked.stdout + checked.stderr


@pytest.mark.parametrize(("switch", "options"), [
    pytest.param({}, "{'server_side_binding': True, 'prepare_threshold': 5}", id="prepared-by-default"),
    pytest.param({"DATABASE_PREPARED_STATEMENTS": "false"}, "{}", id="off-behind-a-transaction-pooler"),
])
def test_postgresql_prepares_statements_unless_a_pooler_forbids_it(switch, options):
    shown = run(["-c", "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS', {}))"],
                DJANGO_SETTINGS_MODULE="mighty_ledger.settings",
                **production(DATABASE_URL="postgres://ledger@db.internal:5432/ledger", **switch))

    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == options


@pytest.mark.parametrize(("workers", "redis", "refused"), [
    pytest.param("5", "", True, id="five-workers-without-redis-refused"),
    pytest.param("1", "", True, id="one-worker-without-redis-refused-the-streams-hear-nothing"),
    pytest.param("5", "redis://127.0.0.1:6379/0", False, id="five-workers-sharing-redis"),
])
def test_make_serve_needs_redis_for_the_streams_and_the_rate_limits(workers, redis, refused):
    # issue 12 point 12: five workers with per-process counts allowed about five times the limit; and
    # the stream processes hear each hand the workers record only through Redis
    env = {"DATABASE_URL": "postgres://ledger@db.internal:5432/ledger", "WEB_CONCURRENCY": workers}
    if redis:
        env["REDIS_URL"] = redis

    started = run(["gunicorn.conf.py"], **env)

    assert (started.returncode != 0) is refused, started.stderr
    if refused:
        assert "make serve needs REDIS_URL" in started.stderr


def test_the_csrf_check_that_runs_is_djangos():
    """security.W003 is silenced because the middleware is Django's, extended, never because it is gone."""
    from django.conf import settings
    from django.middleware.csrf import CsrfViewMiddleware
    from django.utils.module_loading import import_string

    csrf = [path for path in settings.MIDDLEWARE if issubclass(import_string(path), CsrfViewMiddleware)]

    assert csrf == ["mighty_ledger.http.middleware.SameOriginCsrfMiddleware"]
