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


@pytest.mark.parametrize("hsts", [
    pytest.param({}, id="hsts-off-by-default"),
    pytest.param({"SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
                  "SECURE_HSTS_PRELOAD": "true"}, id="hsts-a-year-with-preload"),
])
def test_deployment_checks_are_clean(hsts):
    checked = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production(**hsts))

    assert checked.returncode == 0, checked.stderr + checked.stdout
    assert "System check identified no issues" in checked.stdout


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
