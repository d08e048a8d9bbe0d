"""On PostgreSQL, a change written by one process reaches the watchers of another through
NOTIFY: the app servers of a real deployment share nothing but the database."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.urls import reverse

from mighty_ledger.live.brokers import broker_choice
from tests.factories import SessionFactory

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]

# another app server: records a hand that it rolls back, then one that it commits
OTHER_PROCESS = textwrap.dedent("""
    import sys
    import django
    django.setup()
    from django.db import transaction
    from mighty_ledger import services
    from mighty_ledger.models import Session
    from tests.factories import MADE_15_DIAMONDS

    session = Session.objects.get(pk=int(sys.argv[1]))

    class Undone(Exception):
        pass

    try:
        with transaction.atomic():
            services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
            raise Undone
    except Undone:
        pass
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
""")


@pytest.fixture(autouse=True)
def _postgres_only(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("NOTIFY is PostgreSQL's: run with DATABASE_URL=postgres://…")
    if broker_choice()[0] != "postgres":
        pytest.skip("REDIS_URL is set: the changes travel through Redis")


def _other_app_server(session_id: int) -> subprocess.CompletedProcess:
    database = settings.DATABASES["default"]
    url = (f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST'] or '127.0.0.1'}:"
           f"{database['PORT'] or 5432}/{database['NAME']}")
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "LIVE_BROKER")}
    env |= {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "mighty_ledger.settings", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(session_id)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


async def test_a_hand_recorded_by_another_process_reaches_this_ones_watchers(open_stream):
    session = await sync_to_async(SessionFactory)()
    path = reverse("session_events", args=[session.group.view_token, session.pk])
    stream = await open_stream(path)
    assert await stream.next_event() == ("hello", {"revision": 0})

    other = await asyncio.to_thread(_other_app_server, session.pk)
    assert other.returncode == 0, other.stderr

    # the rolled-back hand said nothing; the committed one is heard once, with its revision
    assert await stream.next_event() == ("change", {"session": session.pk, "revision": 1, "what": "hand_recorded"})
    assert await stream.next_event(0.5) is None
