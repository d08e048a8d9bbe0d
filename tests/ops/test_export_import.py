"""A group's history survives export, an emptied database and import, value for value."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command

from mighty_ledger.models import Group, Hand, Payment, Player, Revision, Season, Session, new_token


def history(group: Group) -> dict:
    """Every stored value of the group, with database ids replaced by what they point at."""
    sessions = list(Session.objects.filter(group=group).order_by("created_at", "id"))
    position = {s.id: i for i, s in enumerate(sessions)}
    hand_keys = {h.id: (position[h.session_id], h.number) for h in Hand.objects.filter(session__group=group)}

    def fields(obj, *skip):
        return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
                if f.attname not in ("id", *skip)}

    return {
        "group": fields(group),
        "players": [fields(p, "group_id") for p in Player.objects.filter(group=group).order_by("name")],
        "seasons": [fields(s, "group_id") for s in Season.objects.filter(group=group).order_by("starts")],
        "sessions": [
            {**fields(s, "group_id"),
             "hands": [fields(h, "session_id") for h in s.hands.order_by("number")],
             "payments": [fields(p, "group_id", "session_id") for p in s.payments.order_by("created_at")],
             "contracts": [{**fields(c, "session_id", "hand_id"), "hand": hand_keys.get(c.hand_id)}
                           for c in s.contracts.order_by("created_at")]}
            for s in sessions
        ],
        "revisions": sorted(
            (
                {**fields(r, "group_id", "session_id", "hand_id"),
                 "session": position.get(r.session_id), "hand": hand_keys.get(r.hand_id)}
                for r in Revision.objects.filter(group=group)
            ),
            key=lambda r: (r["created_at"], r["subject"], r["action"], str(r["hand"])),
        ),
    }


# a real transaction per step: PostgreSQL will not TRUNCATE (flush) inside the test's own transaction
@pytest.mark.django_db(transaction=True)
def test_round_trip_through_an_emptied_database_keeps_every_stored_value(played_group, tmp_path):
    before = history(played_group)
    assert any(h["deleted_at"] for s in before["sessions"] for h in s["hands"])
    assert any(h["kind"] == Hand.DEAL_MISS for s in before["sessions"] for h in s["hands"])
    assert any(h["version"] > 1 and not h["deleted_at"] for s in before["sessions"] for h in s["hands"])
    assert any(p["undone_at"] for s in before["sessions"] for p in s["payments"])
    assert {c["status"] for s in before["sessions"] for c in s["contracts"]} == {"completed", "open"}
    assert before["seasons"]
    path = tmp_path / "group.json"

    call_command("export_group", played_group.view_token, output=str(path))
    call_command("flush", interactive=False, verbosity=0)
    assert not Group.objects.exists() and not Hand.objects.exists()
    call_command("import_group", str(path), stdout=io.StringIO())

    assert history(Group.objects.get()) == before
    assert Payment.objects.count() == 2


def test_a_file_written_before_payments_and_hands_in_progress_came_along_still_imports(played_group, tmp_path):
    path = tmp_path / "group.json"
    call_command("export_group", played_group.view_token, output=str(path))
    document = json.loads(path.read_text())
    for session in document["sessions"]:
        del session["payments"], session["contracts"]
    path.write_text(json.dumps(document))

    call_command("import_group", str(path), new_tokens=True, stdout=io.StringIO())

    copy = Group.objects.exclude(pk=played_group.pk).get()
    assert copy.sessions.count() == 3 and not copy.payments.exists()


def test_a_link_never_begins_with_a_dash_that_a_command_line_would_read_as_an_option():
    # one token_urlsafe in 64 begins with "-": 2,000 draws would all but surely show one
    assert not any(new_token().startswith("-") for _ in range(2000))


def test_a_link_from_before_that_begins_with_a_dash_is_exported_after_a_double_dash(played_group, tmp_path):
    Group.objects.filter(pk=played_group.pk).update(edit_token="-" + played_group.edit_token[1:])
    path = tmp_path / "group.json"
    call_command("export_group", "--", "-" + played_group.edit_token[1:], output=str(path))
    assert json.loads(path.read_text())["group"]["name"] == played_group.name


def test_import_refuses_a_group_whose_links_already_exist(played_group, tmp_path):
    path = tmp_path / "group.json"
    call_command("export_group", played_group.edit_token, output=str(path))

    with pytest.raises(CommandError, match="already exists"):
        call_command("import_group", str(path))

    call_command("import_group", str(path), new_tokens=True, stdout=io.StringIO())
    copy = Group.objects.exclude(pk=played_group.pk).get()
    assert {copy.edit_token, copy.view_token}.isdisjoint({played_group.edit_token, played_group.view_token})
    assert history(copy)["sessions"] == history(played_group)["sessions"]


def test_export_writes_one_csv_row_per_live_hand_with_payments_and_totals(played_group, tmp_path):
    path = tmp_path / "hands.csv"
    call_command("export_group", played_group.edit_token, output=str(tmp_path / "g.json"),
                 csv_path=str(path), stderr=io.StringIO())

    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    live = Hand.objects.live().filter(session__group=played_group, session__deleted_at__isnull=True)
    assert len(rows) == live.count()
    first = rows[0]
    assert (first["number"], first["kind"], first["contract"], first["declarer"], first["partners"],
            first["points"], first["made"]) == ("1", "scored", "15 D", "Ann", "Cy", "16", "yes")
    assert (first["Ann payment"], first["Ann total"]) == ("10", "10")
    deal_miss = rows[1]
    assert deal_miss["kind"] == Hand.DEAL_MISS and deal_miss["made"] == ""


def test_the_download_needs_only_the_view_link_and_never_carries_the_edit_link(played_group, client):
    response = client.get(f"/g/{played_group.view_token}/export.json")

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert played_group.edit_token not in response.content.decode()
    document = json.loads(response.content)
    assert len(document["sessions"]) == 3
    assert sum(len(s["hands"]) for s in document["sessions"]) == Hand.objects.count()


def test_the_download_with_the_edit_link_restores_under_the_same_links(played_group, client):
    document = client.get(f"/g/{played_group.edit_token}/export.json").json()

    assert document["group"]["edit_token"] == played_group.edit_token


def test_an_unknown_link_downloads_nothing(db, client):
    assert client.get("/g/not-a-link/export.json").status_code == 404


@pytest.mark.parametrize(("name", "cell"), [
    pytest.param("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")", id="owasp-equals"),
    pytest.param("+Ann", "'+Ann", id="owasp-plus"),
    pytest.param("-Bo", "'-Bo", id="owasp-minus"),
    pytest.param("@Cy", "'@Cy", id="owasp-at"),
    pytest.param("\tDi", "'\tDi", id="owasp-tab"),
    pytest.param("\rEd", "'\rEd", id="owasp-carriage-return"),
    pytest.param("Ann-Marie", "Ann-Marie", id="plain-name-exact"),
    pytest.param("목요일", "목요일", id="korean-name-exact"),
])
def test_a_csv_text_cell_a_spreadsheet_would_run_is_written_after_a_quote(name, cell):
    from mighty_ledger.reads.exports import spreadsheet_safe

    assert spreadsheet_safe(name) == cell


def test_the_csv_export_is_safe_to_open_and_keeps_numbers_exact(db):
    from mighty_ledger import services
    from mighty_ledger.reads.exports import hands_csv
    from tests.factories import SessionFactory

    group = services.group_create(name="Thursday", player_names=["=1+1", "-Bo", "@Cy", "Di", "Ed"])
    session = SessionFactory(group=group, seats=["=1+1", "-Bo", "@Cy", "Di", "Ed"])
    # pagat example 2 style: 15 diamonds, the defenders keep the declarer to 12
    services.hand_record(session=session, entry={
        "dealer": "Ed", "declarer": "=1+1", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["-Bo"], "points": 12,
    })
    out = io.StringIO()

    hands_csv(group, out)

    header, row = list(csv.reader(io.StringIO(out.getvalue())))
    cells = dict(zip(header, row, strict=True))
    assert "'=1+1 payment" in header and "'-Bo total" in header
    assert (cells["declarer"], cells["partners"]) == ("'=1+1", "'-Bo")
    # a loss stays a number a spreadsheet can sum: -10, never '-10
    assert cells["'=1+1 payment"].lstrip("-").isdigit() and cells["'=1+1 payment"].startswith("-")
    # the JSON export keeps every name as stored
    from mighty_ledger.reads.exports import group_export

    assert {p["name"] for p in group_export(group, include_tokens=False)["players"]} >= {"=1+1", "-Bo"}


def test_an_old_document_with_token_fragments_in_its_revisions_is_imported_without_them(played_group):
    from mighty_ledger.reads.exports import group_export
    from mighty_ledger.services.imports import group_import

    document = group_export(played_group, include_tokens=False)
    for row in document["revisions"]:
        row["by"] = "edit link …Ab3d"
    document["revisions"][0]["by"] = "edit api …Zz09"

    group = group_import(document=document, new_tokens=True)

    assert set(Revision.objects.filter(group=group).values_list("by", flat=True)) == {"edit link", "API"}


def test_an_old_document_with_nulls_and_bids_alone_is_imported_as_entries_are_kept_now(played_group, client):
    """An export written before migration 0012: a hand sent with "partners": null, a hand given by
    its bid alone, a hand in progress with a null. Restored as written, the statistics and the
    player pages answered 500 and the bid-alone hand showed no contract."""
    from mighty_ledger.reads.exports import group_export
    from mighty_ledger.services.imports import group_import

    document = group_export(played_group, include_tokens=False)
    evening = document["sessions"][0]
    nulls, bid_alone = [hand for hand in evening["hands"] if hand["kind"] == Hand.SCORED][:2]
    nulls["entry"] = {**nulls["entry"], "partners": None, "discards": None}
    contract = bid_alone["entry"].pop("contract")
    bid_alone["entry"]["bid"] = contract
    in_progress = next(session["contracts"][0] for session in document["sessions"] if session["contracts"])
    in_progress["entry"] = {**in_progress["entry"], "note": None}

    group = group_import(document=document, new_tokens=True)

    session = group.sessions.get(title=evening["title"], created_at=evening["created_at"])
    stored = {hand.number: hand.entry for hand in session.hands.all()}
    assert "partners" not in stored[nulls["number"]] and "discards" not in stored[nulls["number"]]
    assert stored[bid_alone["number"]]["contract"] == stored[bid_alone["number"]]["bid"] == contract
    assert all(None not in c.entry.values() for s in group.sessions.all() for c in s.contracts.all())
    assert client.get(f"/g/{group.view_token}/stats/").status_code == 200
