"""python -m scoring score|check|redeal|auction|next: HAND_JSON on stdin, one JSON result per line on stdout.

Stdin holds one JSON object, a list, JSON Lines or objects one after another. Exit
status 2 when any request was illegal or malformed (for ``check``: when any hand is
illegal), else 0.

``python -m scoring`` alone answers each request as what it is: a deal-miss check
(``{"system", "players", "hand"}``) with its verdict and odds, an auction
(``{…, "auction": [...]}``) or the coming hand (``{…, "previous": …}``) as their
commands do, anything else as a hand to score.

``python -m scoring systems`` reads nothing and prints every preset with its
options as one JSON array, the answer of ``GET /api/v1/systems``.
"""

from __future__ import annotations

import codecs
import json
import re
import sys

from . import interface
from .problems import InvalidInput

USAGE = ("usage: python -m scoring [score|check|redeal|auction|next] < requests.json\n"
         "       python -m scoring systems")
COMMANDS = ("score", "check", "redeal", "auction", "next")


def _requests(text: str):
    """Yield each request, or a ready error for a line that is not JSON."""
    # a file saved on Windows, or piped by PowerShell, starts with a byte-order mark
    stripped = text.removeprefix("\ufeff").strip()
    if not stripped:
        # nothing piped in (an empty file, a command run without its input): said, not silence
        yield _BadLine("Nothing was read: send a request as JSON on standard input.")
        return
    try:
        whole = json.loads(stripped)
    except ValueError:  # not JSON, or a number too long to read: line by line says where
        whole = None
    else:
        if isinstance(whole, list):
            yield from whole
        else:
            yield whole
        return
    # JSON Lines, or objects one after another however laid out (`cat a.json b.json`): each value
    # in turn; one that is not JSON is said with its line, and reading goes on from the next line
    decoder = json.JSONDecoder()
    position = 0
    while True:
        position = _NOT_BLANK.search(stripped, position).start()
        if position == len(stripped):
            return
        try:
            value, position = decoder.raw_decode(stripped, position)
        except json.JSONDecodeError as error:
            yield _BadLine(f"Line {error.lineno} is not valid JSON: {error.msg} at column {error.colno}.")
            position = error.pos
        except ValueError:
            # Python reads at most 4300 digits, and says so in words for programmers
            yield _BadLine(f"A number on line {stripped.count(chr(10), 0, position) + 1} is too long.")
        else:
            yield value
            continue
        end_of_line = stripped.find("\n", position)
        position = len(stripped) if end_of_line < 0 else end_of_line + 1


# whitespace, and the byte-order mark each file saved by Notepad starts with (`type a.json b.json`)
_NOT_BLANK = re.compile(r"[^\s\ufeff]|\Z")


class _BadLine:
    def __init__(self, message: str):
        self.message = message


# a byte-order mark says the encoding: Windows PowerShell 5 writes files (and its '>') in UTF-16
_BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)


def _read_input() -> str | _BadLine:
    """Standard input as text. JSON is UTF-8 (or UTF-16 or 32 with their byte-order mark), whatever
    the console's code page says; anything else is said, not a Python error."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream given in place of the console
        return sys.stdin.read()
    data = stream.read()
    encoding = next((name for mark, name in _BYTE_ORDER_MARKS if data.startswith(mark)), "utf-8")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return _BadLine("Standard input is not UTF-8 text: save the request as UTF-8 (a file in another "
                        "encoding, such as CP949, reads as other characters).")


def _write(text: str, stream=None) -> None:
    """One answer, as UTF-8 whatever the console's code page: a code page without ♠, − or 한글
    cannot hold an answer, and JSON is UTF-8."""
    stream = stream or sys.stdout
    binary = getattr(stream, "buffer", None)
    if binary is None:
        print(text, file=stream, flush=True)
        return
    stream.flush()
    binary.write(text.encode("utf-8") + b"\n")
    binary.flush()


def _bad_json(message: str) -> dict:
    return {"errors": [{"field": "", "code": "bad_json", "message": message}]}


def answer(command: str, request) -> tuple[dict, bool]:
    """The JSON answer to one request, and whether it counts as a failure for the exit status."""
    if isinstance(request, _BadLine):
        return _bad_json(request.message), True
    handlers = {
        "score": interface.score_request,
        "check": interface.check_request,
        "redeal": interface.redeal_request,
        "auction": interface.auction_request,
        "next": interface.next_request,
    }
    try:
        response = handlers[command](request)
    except InvalidInput as error:
        return error.as_json(), True
    failed = command in ("check", "auction") and not response.get("legal", True)
    return response, failed


def command_for(request) -> str:
    """What a request without a command asks, by its shape: a deal-miss check names a player's
    cards (``hand``), an auction its calls (``auction``) and the coming hand the one before
    (``previous``), none of them with a declarer; every other request is a hand to score."""
    if not isinstance(request, dict) or "declarer" in request or "contract" in request:
        return "score"
    if isinstance(request.get("hand"), list):
        return "redeal"
    if isinstance(request.get("auction"), list):
        return "auction"
    if "previous" in request:
        return "next"
    return "score"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["systems"]:
        _write(json.dumps(interface.systems_response(), ensure_ascii=False))
        return 0
    if len(argv) > 1 or (argv and argv[0] not in COMMANDS):
        print(USAGE, file=sys.stderr)
        return 64
    any_failed = False
    text = _read_input()
    for request in [text] if isinstance(text, _BadLine) else _requests(text):
        response, failed = answer(argv[0] if argv else command_for(request), request)
        any_failed = any_failed or failed
        _write(json.dumps(response, ensure_ascii=False))
    return 2 if any_failed else 0


if __name__ == "__main__":
    sys.exit(main())
