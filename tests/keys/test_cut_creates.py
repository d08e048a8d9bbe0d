"""A create and the answer kept for its one-time key commit together (issue 36).

For every create the API and the pages offer, the database connection is cut at
each statement the request sends in turn (the statement's backend is killed:
``pg_terminate_backend(pg_backend_pid())``, so the server ends the connection as
a restart or a failover would), then at its commit, before the commit reaches
the server and after the server committed but before the app heard so. On
SQLite, which has no connection to lose, the statement or the commit fails with
the error a lost connection raises, and the test runs the same way. Each
time the client does what it was told: on 503 it sends the same request again,
with the same key. Exactly one thing is made, and the last answer describes it.

The client does not wait the 503's Retry-After before sending again: nothing on
the server waits for time to pass (no key is left held by the request that died),
so the first retry must already answer.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, connection
from django.test import Client
from rest_framework.test import APIClient

from mighty_ledger.http import request_keys
from mighty_ledger.models import Group, Hand, Player, Season, Session, SheetImport
from tests.factories import MADE_15_DIAMONDS, SEATS, SessionFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_rate_limits")]

KILL = "SELECT pg_terminate_backend(pg_backend_pid())"


def kill(run_sql: Callable[[str], object]) -> None:
    """End this connection as the server does when it restarts; on SQLite, fail as that would."""
    if connection.vendor != "postgresql":
        raise OperationalError("the connection to the database was cut")
    run_sql(KILL)
    run_sql("SELECT 1")  # the backend is gone: this cannot answer
    raise AssertionError("the connection outlived pg_terminate_backend")


class Cut:
    """Counts the statements and commits of one request, and kills the connection at one of them.

    ``at`` is the statement's number (1 for the first), or ("commit", n, "before" | "after").
    """

    def __init__(self, at=None):
        self.at = at
        self.statements = 0
        self.commits = 0
        self.done = False

    def __call__(self, execute, sql, params, many, context):
        self.statements += 1
        if self.at == self.statements:
            self.done = True
            kill(lambda statement: execute(statement, None, False, context))
        return execute(sql, params, many, context)

    def commit(self, real_commit):
        self.commits += 1
        if self.at in (("commit", self.commits, "before"), ("commit", self.commits, "after")):
            self.done = True
            if self.at[2] == "after":
                real_commit()  # the server commits; its answer is what gets lost
            with connection.wrap_database_errors:
                kill(connection.connection.execute)
        return real_commit()


def send_cut(send: Callable[[], object], cut: Cut):
    real_commit = connection._commit
    connection._commit = lambda: cut.commit(real_commit)
    try:
        with connection.execute_wrapper(cut):
            return send()
    finally:
        del connection._commit
        # what Django does when a request finishes (the test client leaves it to the test)
        connection.close_if_unusable_or_obsolete()


def send_as_told(send: Callable[[], object], cut: Cut) -> list:
    """The request cut as ``cut`` says, then sent again as each answer tells; every answer, in order."""
    answers = [send_cut(send, cut)]
    while answers[-1].status_code == 503 and len(answers) < 5:
        assert answers[-1]["Retry-After"]
        answers.append(send_cut(send, Cut()))
    return answers


@dataclass(frozen=True)
class Create:
    name: str
    # sends the n-th create (values of its own, so each makes a new thing), the same bytes each time
    send: Callable[[Session, int], Callable[[], object]]
    made: Callable[[Session], object]  # the query of the things of this kind
    # the final answer, and the one thing made
    describes: Callable[[object, Session, object], bool]


def api(session: Session) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {session.group.edit_token}")
    return client


def api_post(url: str, body: Callable[[Session, int], dict]):
    def send(session: Session, n: int):
        client, key = api(session), f"create-{n}"
        return lambda: client.post(url.format(session=session.pk), body(session, n), format="json",
                                   headers={"Idempotency-Key": key})
    return send


def api_import(session: Session, n: int):
    """A score sheet of one evening of its own, committed: the same bytes at every retry."""
    sheet = f"date,{','.join(SEATS)}\r\n{_season_day(n)},4,-1,-1,-1,-1\r\n".encode()

    def send():
        upload = SimpleUploadedFile(f"evening-{n}.csv", sheet, content_type="text/csv")
        return api(session).post("/api/v1/imports", {"file": upload, "preset": "pagat-standard", "commit": "true"},
                                 format="multipart", headers={"Idempotency-Key": f"create-{n}"})
    return send


def _imported_whole(answer, session: Session, made: SheetImport) -> bool:
    """The answer names the import, and every session of the group beside the first is one an
    import made: none was left without its import."""
    imported = {pk for ids in SheetImport.objects.filter(group=session.group_id).values_list("session_ids", flat=True)
                for pk in ids}
    others = set(Session.objects.filter(group=session.group_id).exclude(pk=session.pk).values_list("pk", flat=True))
    return answer.json()["import_id"] == made.key and len(made.session_ids) == 1 and others == imported


def page_post(path: Callable[[Session], str], form: Callable[[Session, int], dict]):
    def send(session: Session, n: int):
        client, data = Client(), form(session, n) | {"request_key": request_keys.new_form_key()}
        return lambda: client.post(path(session), data)
    return send


def _session_body(session: Session, n: int) -> dict:
    return {"seats": list(SEATS), "preset": "pagat-standard", "title": f"evening {n}"}


def _season_day(n: int) -> str:
    return (datetime.date(2030, 1, 1) + datetime.timedelta(days=n)).isoformat()


CREATES = [
    Create("api-group", api_post("/api/v1/groups", lambda s, n: {"name": f"Friday {n}", "players": ["Ann", "Bo"]}),
           lambda s: Group.objects.exclude(pk=s.group_id),
           lambda answer, s, group: answer.json()["edit_token"] == group.edit_token
           and group.players.count() == 2),
    Create("api-player", api_post("/api/v1/players", lambda s, n: {"name": f"Flo {n}"}),
           lambda s: Player.objects.filter(group=s.group_id).exclude(name__in=SEATS),
           lambda answer, s, player: answer.json() == {"id": player.pk, "name": player.name}),
    Create("api-session", api_post("/api/v1/sessions", _session_body),
           lambda s: Session.objects.filter(group=s.group_id).exclude(pk=s.pk),
           lambda answer, s, made: answer.json()["id"] == made.pk and answer.json()["title"] == made.title),
    Create("api-season", api_post("/api/v1/seasons", lambda s, n: {"name": f"Spring {n}", "starts": _season_day(n)}),
           lambda s: Season.objects.filter(group=s.group_id),
           lambda answer, s, season: answer.json()["id"] == season.pk and answer.json()["name"] == season.name),
    Create("api-hand", api_post("/api/v1/sessions/{session}/hands", lambda s, n: MADE_15_DIAMONDS),
           lambda s: Hand.objects.filter(session=s),
           lambda answer, s, hand: answer.json()["number"] == hand.number == 1),
    Create("api-import", api_import, lambda s: SheetImport.objects.filter(group=s.group_id), _imported_whole),
    Create("page-group", page_post(lambda s: "/g/new/", lambda s, n: {"name": f"Friday {n}", "player_names": "Ann\nBo"}),
           lambda s: Group.objects.exclude(pk=s.group_id),
           lambda answer, s, group: answer.status_code == 302
           and answer["Location"] == f"/g/{group.edit_token}/?created=1" and group.players.count() == 2),
    Create("page-player", page_post(lambda s: f"/g/{s.group.edit_token}/players/add/", lambda s, n: {"name": f"Flo {n}"}),
           lambda s: Player.objects.filter(group=s.group_id).exclude(name__in=SEATS),
           lambda answer, s, player: answer.status_code == 302 and answer["Location"] == f"/g/{s.group.edit_token}/"),
    Create("page-session", page_post(
        lambda s: f"/g/{s.group.edit_token}/sessions/new/",
        lambda s, n: {"played_on": "2025-03-01", "preset": "pagat-standard", "title": f"evening {n}",
                      **{f"seat_{i + 1}": name for i, name in enumerate(SEATS)}}),
           lambda s: Session.objects.filter(group=s.group_id).exclude(pk=s.pk),
           lambda answer, s, made: answer.status_code == 302
           and answer["Location"] == f"/g/{s.group.edit_token}/s/{made.pk}/"),
    Create("page-season", page_post(lambda s: f"/g/{s.group.edit_token}/seasons/",
                                    lambda s, n: {"name": f"Spring {n}", "starts": _season_day(n)}),
           lambda s: Season.objects.filter(group=s.group_id),
           lambda answer, s, season: answer.status_code == 302
           and answer["Location"] == f"/g/{s.group.edit_token}/seasons/"),
]


def cuts(statements: int, commits: int) -> list:
    return [*range(1, statements + 1),
            *(("commit", n, when) for n in range(1, commits + 1) for when in ("before", "after"))]


@pytest.mark.parametrize("create", CREATES, ids=[create.name for create in CREATES])
def test_a_create_cut_at_any_statement_and_sent_again_makes_one_thing_and_says_which(create):
    whole = Cut()
    first = SessionFactory()
    assert send_cut(create.send(first, 0), whole).status_code in (201, 302)
    assert whole.statements > 3 and whole.commits >= 1

    for n, at in enumerate(cuts(whole.statements, whole.commits), start=1):
        session = SessionFactory() if create.name == "api-hand" else first  # one first hand per session
        before = set(create.made(session).values_list("pk", flat=True))
        cut = Cut(at)

        answers = send_as_told(create.send(session, n), cut)

        made = create.made(session).exclude(pk__in=before)
        codes = [answer.status_code for answer in answers]
        assert cut.done, f"the request sent fewer statements than the first: {at}"
        assert made.count() == 1, f"cut at {at}: {made.count()} made, answers {codes}"
        assert codes[-1] in (200, 201, 302), f"cut at {at}: answers {codes}"
        assert all(code == 503 for code in codes[:-1]), f"cut at {at}: answers {codes}"
        assert create.describes(answers[-1], session, made.get()), f"cut at {at}: {answers[-1].content[:300]}"


def test_every_cut_is_a_real_lost_connection():
    cut = Cut(1)
    with pytest.raises(OperationalError):
        send_cut(lambda: list(itertools.islice(Group.objects.all(), 1)), cut)
    assert cut.done
    if connection.vendor == "postgresql":
        assert connection.connection is None  # dropped, as at the end of a request
