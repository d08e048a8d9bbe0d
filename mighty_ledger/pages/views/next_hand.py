"""The coming hand for a hand form left open (static/js/live_form.js): what another phone did
since the form was opened, drawn by the server so the page never keeps a second copy of the
table flow.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mighty_ledger import reads
from mighty_ledger.models import Session
from mighty_ledger.pages.views.links import edit_access


@require_GET
def hand_next(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The coming hand as the table stands now, for a hand form left open (static/js/live_form.js):
    its number, dealer and who sits out, and one line saying what another phone did. The form
    says what it shows (``shown``, ``dealer``, ``in_progress``, ``playing``) so the line names
    only what moved."""
    access = edit_access(token, pk)
    session = access.session(pk)
    editing = _asked_number(request.GET.get("editing"))
    if editing is not None:
        return _changed_meanwhile(request, session, editing, _asked_number(request.GET.get("version")))
    last = reads.last_hand(session)
    state = reads.next_state(session, last)
    contract = _asked_contract(session, request.GET.get("in_progress"))
    playing = session.contracts.open().first()
    # completing a hand in progress: its dealer is the contract's, whatever was saved since
    dealer = contract.entry.get("dealer") if contract is not None else state.dealer
    number = session.hand_count + 1
    response = render(request, "partials/next_hand.html", {
        "session": session, "number": number, "dealer": dealer,
        "sitting_out": list(contract.entry.get("sitting_out", [])) if contract is not None else list(state.sitting_out),
        "moved": _asked_number(request.GET.get("shown")) not in (None, number),
        # the hand just saved is the latest live one, unless it was deleted since
        "saved": last if last is not None and last.number == session.hand_count
        else session.hands.filter(number=session.hand_count).first() if session.hand_count else None,
        "dealer_moved": request.GET.get("dealer", dealer) != dealer,
        "contract": contract, "playing": playing,
        # news: the stream said a contract changed, or it is not the one the form last heard of
        "playing_new": playing is not None and (request.GET.get("what") == "contract_changed"
                                                or request.GET.get("playing", str(playing.pk)) != str(playing.pk)),
    })
    response["Cache-Control"] = "no-store"
    return response


def _changed_meanwhile(request: HttpRequest, session: Session, number: int, version: int | None) -> HttpResponse:
    """For a correction left open: whether another phone changed (or deleted) that hand since the
    version the form holds. Saving it then shows both side by side; this only says so beforehand."""
    hand = session.hands.filter(number=number).first()
    changed = hand is not None and version is not None and hand.version != version
    response = render(request, "partials/next_hand.html", {"editing": True, "changed": hand if changed else None})
    response["Cache-Control"] = "no-store"
    return response


def _asked_number(raw: str | None) -> int | None:
    # ASCII digits only: "²" is a digit to str.isdigit, and not to int()
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _asked_contract(session: Session, raw: str | None):
    number = _asked_number(raw)
    return session.contracts.filter(pk=number).first() if number else None
