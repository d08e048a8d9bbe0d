"""`python -m scoring`: HAND_JSON on stdin, one JSON answer per line, exit 2 when anything was illegal."""

import io
import json
import subprocess
import sys

import pytest

from scoring.__main__ import main

from .hands import hand


def run(command: str, stdin: str, monkeypatch, capsys) -> tuple[int, list[dict]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main([command])
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_one_hand_scores_with_exit_zero(monkeypatch, capsys):
    status, answers = run("score", json.dumps(hand("16 NT", 18)), monkeypatch, capsys)
    assert status == 0
    assert answers[0]["payments"]["Ann"] == 32


def test_json_lines_answer_line_by_line_and_an_illegal_hand_exits_two(monkeypatch, capsys):
    lines = "\n".join([json.dumps(hand("15 D", 16)), json.dumps(hand("12 D", 16)), "not json"])
    status, answers = run("score", lines, monkeypatch, capsys)
    assert status == 2
    assert answers[0]["score"] == 5
    assert answers[1]["errors"][0]["code"] == "below_minimum"
    assert answers[2]["errors"][0]["code"] == "bad_json"


def test_check_prints_legal_or_every_error(monkeypatch, capsys):
    status, answers = run("check", json.dumps(hand("15 D", 16)), monkeypatch, capsys)
    assert (status, answers) == (0, [{"legal": True, "errors": []}])
    status, answers = run("check", json.dumps(hand("15 D", 21)), monkeypatch, capsys)
    assert status == 2 and answers[0]["legal"] is False


def test_redeal_answers_the_deal_miss_request(monkeypatch, capsys):
    request = {"system": "korean-standard", "players": 5,
               "hand": ["AS", "JOKER", "7H", "2C", "3D", "4D", "5D", "6D", "7D", "8D"]}
    status, answers = run("redeal", json.dumps(request), monkeypatch, capsys)
    assert status == 0 and answers[0]["qualifies"] is True
    assert 0 < answers[0]["probability"] < 1


def test_unknown_command_is_a_usage_error():
    assert main(["frobnicate"]) == 64
    assert main(["score", "check"]) == 64


def test_without_a_command_each_request_is_answered_as_what_it_is(monkeypatch, capsys):
    # HAND_JSON's hand is scored, its deal-miss check judged, its error shape kept
    deal = {"system": "korean-standard", "players": 5,
            "hand": ["AS", "JOKER", "7H", "2C", "3D", "4D", "5D", "6D", "7D", "8D"]}
    lines = "\n".join([json.dumps(hand("16 NT", 18)), json.dumps(deal), json.dumps(hand("12 D", 16))])
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))

    status = main([])

    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 2
    assert answers[0]["payments"]["Ann"] == 32
    assert answers[1]["qualifies"] is True and 0 < answers[1]["probability"] < 1
    assert answers[2]["errors"][0]["code"] == "below_minimum"


def test_without_a_command_an_auction_and_the_coming_hand_are_answered_too(monkeypatch, capsys):
    seats = ["Ann", "Bo", "Cy", "Di", "Ed"]
    auction = {"system": "pagat-standard", "seats": seats, "dealer": "Ann",  # pagat: the dealer opens
               "auction": [{"seat": "Ann", "bid": {"points": 13, "trump": "S"}},
                           *({"seat": seat, "pass": True} for seat in seats[1:])]}
    coming = {"system": "pagat-standard", "seats": seats, "previous": {"kind": "all_pass", "dealer": "Bo"}}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(auction) + "\n" + json.dumps(coming)))

    assert main([]) == 0

    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers[0]["legal"] is True and answers[0]["declarer"] == "Ann"
    assert answers[1]["dealer"] == "Bo"


def test_a_byte_order_mark_before_the_json_is_no_error(monkeypatch, capsys):
    # as a file saved on Windows, or PowerShell's pipe, sends it
    status, answers = run("score", "\ufeff" + json.dumps(hand("16 NT", 18)), monkeypatch, capsys)
    assert status == 0 and answers[0]["payments"]["Ann"] == 32


@pytest.mark.parametrize("stdin", ["", "\n  \n"], ids=["nothing", "blank-lines"])
def test_nothing_on_standard_input_is_said_and_exits_two(stdin, monkeypatch, capsys):
    status, answers = run("score", stdin, monkeypatch, capsys)

    assert status == 2
    assert [error["code"] for error in answers[0]["errors"]] == ["bad_json"]


def test_without_a_command_as_a_program_too():
    completed = subprocess.run([sys.executable, "-m", "scoring"], input=json.dumps(hand("16 NT", 18)),
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0 and json.loads(completed.stdout)["payments"]["Ann"] == 32


@pytest.mark.parametrize("command", ["score", "check", "redeal", "auction"])
def test_the_module_runs_as_a_program(command):
    completed = subprocess.run(
        [sys.executable, "-m", "scoring", command], input="{}", capture_output=True, text=True, check=False
    )
    assert completed.returncode == 2
    assert "errors" in json.loads(completed.stdout.splitlines()[0])


FIVE_SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


@pytest.mark.parametrize(
    ("request_", "dealer", "first_bidder"),
    [
        # pagat: the partner of the previous hand deals, its declarer bids first
        ({"previous": hand("15 D", 16, dealer="Ed")}, "Cy", "Ann"),
        # pagat: a declarer alone deals the next hand himself
        ({"previous": hand("16 NT", 17, dealer="Ed", partners=(), call={"type": "none"})}, "Ann", "Ann"),
        # the first hand: the first dealer opens the bidding
        ({"previous": None, "first_dealer": "Cy"}, "Cy", "Cy"),
        # pagat: the player who demanded a redeal deals it and bids first
        ({"previous": {"kind": "deal_miss", "dealer": "Ann", "demander": "Di"}}, "Di", "Di"),
        # everyone passed: the same dealer deals again
        ({"previous": {"kind": "all_pass", "dealer": "Bo"}}, "Bo", "Bo"),
    ],
    ids=["pagat-partner-deals", "pagat-alone-declarer-deals", "first-hand", "pagat-deal-miss", "all-pass"],
)
def test_next_says_who_deals_and_bids_first(request_, dealer, first_bidder, monkeypatch, capsys):
    request_ = {"system": "pagat-standard", "seats": FIVE_SEATS, **request_}
    status, answers = run("next", json.dumps(request_), monkeypatch, capsys)
    assert status == 0
    assert (answers[0]["dealer"], answers[0]["first_bidder"]) == (dealer, first_bidder)


def test_next_names_who_sits_out_at_six():
    from scoring.interface import next_request

    answer = next_request({"system": "pagat-6p-rotation", "seats": [*FIVE_SEATS, "Fay"], "first_dealer": "Fay"})
    assert answer["sitting_out"] == ["Fay"] and "Fay" not in answer["active"]


def test_next_refuses_seats_that_do_not_fit(monkeypatch, capsys):
    status, answers = run("next", json.dumps({"system": "pagat-standard", "seats": ["A", "B"]}), monkeypatch, capsys)
    assert status == 2 and answers[0]["errors"][0]["code"] == "wrong_player_count"


def test_systems_prints_every_preset_with_its_options(monkeypatch, capsys):
    from scoring.interface import systems_response
    from scoring.presets import all_presets

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["systems"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [system["slug"] for system in printed] == [preset.slug for preset in all_presets()]
    korean = next(system for system in printed if system["slug"] == "korean-standard")
    assert korean["options"]["min_bid"] == 14 and korean["rules_in_words"] and korean["deal_miss"]["criteria"]
    assert printed == systems_response()


def test_systems_takes_no_argument(monkeypatch, capsys):
    assert main(["systems", "extra"]) == 64
    assert "systems" in capsys.readouterr().err


def test_next_refuses_partners_written_as_one_name(monkeypatch, capsys):
    # a probe of the API, which shares next_request: the partner's name alone was dropped silently
    previous = {"kind": "scored", "dealer": "Bo", "declarer": "Cy", "partners": "Ed", "made": True}
    status, answers = run("next", json.dumps({"system": "pagat-standard", "seats": FIVE_SEATS, "previous": previous}),
                          monkeypatch, capsys)
    assert status == 2
    assert [(e["field"], e["code"]) for e in answers[0]["errors"]] == [("previous.partners", "bad_type")]


def test_a_number_too_long_to_read_is_a_bad_line_not_a_crash(monkeypatch, capsys):
    lines = "\n".join([json.dumps(hand("15 D", 16)), '{"points": ' + "1" * 5000 + "}"])
    status, answers = run("score", lines, monkeypatch, capsys)
    assert status == 2
    assert answers[0]["score"] == 5
    assert answers[1]["errors"] == [{"field": "", "code": "bad_json", "message": "A number on line 2 is too long."}]


# --- what a table's computer sends and reads -----------------------------------------------------

KOREAN_HAND = {"system": "korean-standard", "seats": ["주공", "프렌드", "야당1", "야당2", "야당3"],
               "declarer": "주공", "contract": {"points": 16, "trump": "NT"},
               "partner_call": {"type": "card", "cards": ["JOKER"]}, "partners": ["프렌드"], "points": 17}


def run_program(stdin: bytes, encoding: str | None = None) -> subprocess.CompletedProcess:
    """python -m scoring as a shell runs it; ``encoding`` is the one its locale gives standard input
    and output (PYTHONIOENCODING), such as Windows' code page when output goes to a file."""
    import os

    env = dict(os.environ)
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    return subprocess.run([sys.executable, "-m", "scoring"], input=stdin, capture_output=True, env=env, check=False)


@pytest.mark.parametrize("encoding", ["cp1252", "cp949", "ascii"])
def test_the_answer_is_utf8_json_whatever_the_consoles_code_page(encoding):
    # the explanation writes 2×(16−14) and the seats are Korean: a code page without − or 한글
    # stopped the program with a Python error instead of the answer
    completed = run_program(json.dumps(KOREAN_HAND, ensure_ascii=False).encode("utf-8"), encoding)
    assert completed.returncode == 0, completed.stderr.decode("utf-8", "replace")
    answer = json.loads(completed.stdout.decode("utf-8"))
    assert answer["payments"]["주공"] == 2 * answer["score"] and "−" in answer["explanation"][1]


def test_a_request_saved_as_utf16_is_read():
    # Windows PowerShell 5 writes 'Get-Content hand.json > request.json' as UTF-16 with a byte-order mark
    completed = run_program(json.dumps(KOREAN_HAND, ensure_ascii=False).encode("utf-16"))
    assert completed.returncode == 0, completed.stdout
    assert json.loads(completed.stdout.decode("utf-8"))["made"] is True


@pytest.mark.parametrize("encoding", [None, "utf-8"])
def test_a_request_that_is_not_utf8_text_is_a_bad_json_error_not_a_crash(encoding):
    # Korean Windows saves a file in CP949 unless told otherwise
    completed = run_program(json.dumps(KOREAN_HAND, ensure_ascii=False).encode("cp949"), encoding)
    assert completed.returncode == 2 and completed.stderr == b""
    errors = json.loads(completed.stdout.decode("utf-8"))["errors"]
    assert [error["code"] for error in errors] == ["bad_json"]
    assert "UTF-8" in errors[0]["message"]


def test_requests_written_over_several_lines_one_after_another_are_each_answered(monkeypatch, capsys):
    # `cat hand-1.json hand-2.json | python -m scoring`: each file one indented object, not JSON Lines;
    # every line of them was answered as a line that is not JSON
    pretty = "\n".join(json.dumps(hand(contract, points), indent=2) for contract, points in (("15 D", 16), ("16 NT", 18)))
    status, answers = run("score", pretty + "\nnot json\n" + json.dumps(hand("15 D", 16)), monkeypatch, capsys)
    assert status == 2
    assert [answer.get("score") for answer in answers] == [5, 16, None, 5]
    line = len(pretty.splitlines()) + 1
    assert answers[2]["errors"][0]["message"].startswith(f"Line {line} is not valid JSON")


def test_files_saved_with_a_byte_order_mark_each_are_read_one_after_another(monkeypatch, capsys):
    # Notepad saves UTF-8 with a byte-order mark: `type a.json b.json` puts the second mark mid-stream
    files = ["\ufeff" + json.dumps(hand("15 D", 16)), "\ufeff" + json.dumps(hand("16 NT", 18))]
    status, answers = run("score", "\n".join(files), monkeypatch, capsys)
    assert status == 0 and [answer["score"] for answer in answers] == [5, 16]


@pytest.mark.parametrize("command", ["score", "check"])
@pytest.mark.parametrize("empty", [{"contract": None}, {"contract": None, "bid": None}], ids=["contract", "and-bid"])
def test_a_contract_written_as_null_is_said_missing_not_a_crash(command, empty, monkeypatch, capsys):
    # a form that sends every field, the ones left empty as null: the hand was scored as no hand at all
    status, answers = run(command, json.dumps({**hand("15 D", 16), **empty}), monkeypatch, capsys)
    assert status == 2
    assert [(e["field"], e["code"]) for e in answers[0]["errors"]] == [("contract", "missing")]


def test_a_previous_hand_with_a_null_contract_is_said_missing_not_a_crash(monkeypatch, capsys):
    previous = {**hand("15 D", 16, dealer="Ed"), "contract": None}
    request_ = {"system": "pagat-standard", "seats": FIVE_SEATS, "previous": previous}
    status, answers = run("next", json.dumps(request_), monkeypatch, capsys)
    assert status == 2
    assert [(e["field"], e["code"]) for e in answers[0]["errors"]] == [("previous.contract", "missing")]
