"""The coming hand for a hand form left open (static/js/live_form.js): what another phone did
since the form was opened, drawn by the server so the page never keeps a second copy of the
table flow.

A hand another phone saved at the number the form is entering is asked about, never followed
silently: at a real table the player almost always meant that very hand, so the form shows it,
with its payments, and moves to the next number only when the player says theirs is another.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mighty_ledger import reads
from mighty_ledger.models import Contract, Session
from mighty_ledger.pages.views.links import edit_access
from mighty_ledger.reads import hands, in_progress


@require_GET
def hand_next(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The coming hand as the table stands now, for a hand form left open (static/js/live_form.js):
    its number, dealer and who sits out, and what another phone did. The form says what it shows
    (``shown``, the number it enters; ``dealer``, ``in_progress``, ``playing``; ``form=contract``
    for the contract's form) so the answer names only what moved, and asks about a hand saved at
    the number the form enters, or a contract recorded while the contract's form is open."""
    access = edit_access(token, pk)
    session = access.session(pk)
    editing = _asked_number(request.GET.get("editing"))
    if editing is not None:
        return _changed_meanwhile(request, session, editing, _asked_number(request.GET.get("version")))
    last = reads.last_hand(session)
    state = reads.next_state(session, last)
    contract = _asked_contract(session, request.GET.get("in_progress"))
    playing = reads.playing_now(session)
    # completing a hand in progress: its dealer is the contract's, whatever was saved since; once
    # another phone completed it, the form that goes on enters another hand, the table's next
    following = contract is not None and contract.status == Contract.OPEN
    dealer = contract.entry.get("dealer") if following else state.dealer
    number = session.hand_count + 1
    shown = _asked_number(request.GET.get("shown"))
    # the board asks about the hand the server said another phone saved first (``hand``): a Save
    # that arrived second meets the same question a form left open asks (static/js/pending.js)
    asked_hand = _asked_number(request.GET.get("hand"))
    playing_new = playing is not None and (request.GET.get("what") == "contract_changed"
                                           or request.GET.get("playing", str(playing.pk)) != str(playing.pk))
    response = render(request, "partials/next_hand.html", {
        "access": access, "session": session, "number": number, "dealer": dealer,
        "last_number": last.number if last is not None else 0,
        "sitting_out": list(contract.entry.get("sitting_out", [])) if following else list(state.sitting_out),
        # the form's number was taken meanwhile: the hand there, and how many were saved from it on
        "saved": (hands.hand_numbered(session, asked_hand) if asked_hand is not None
                  else _saved_from(session, shown, last) if shown is not None and shown < number else None),
        "saved_count": number - shown if asked_hand is None and shown is not None and shown < number else 0,
        "dealer_moved": request.GET.get("dealer", dealer) != dealer,
        "contract": contract, "playing": playing,
        # news: the stream said a contract changed, or it is not the one the form last heard of
        "playing_new": playing_new,
        # the contract's form, open while another phone recorded one: is it the same hand?
        "ask_contract": playing_new and contract is None and request.GET.get("form") == "contract",
    })
    response["Cache-Control"] = "no-store"
    return response


def _saved_from(session: Session, shown: int, last):
    """The hand just saved from the number the form enters on: the latest live hand (read already
    for the table flow), else the one there deleted since, or None when there is none at all."""
    if last is not None and last.number >= shown:
        return last
    return hands.latest_from(session, shown)


def _changed_meanwhile(request: HttpRequest, session: Session, number: int, version: int | None) -> HttpResponse:
    """For a correction left open: whether another phone changed (or deleted) that hand since the
    version the form holds. Saving it then shows both side by side; this only says so beforehand."""
    hand = hands.hand_numbered(session, number)
    changed = hand is not None and version is not None and hand.version != version
    response = render(request, "partials/next_hand.html", {"editing": True, "changed": hand if changed else None})
    response["Cache-Control"] = "no-store"
    return response


def _asked_number(raw: str | None) -> int | None:
    # ASCII digits only: "²" is a digit to str.isdigit, and not to int()
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _asked_contract(session: Session, raw: str | None):
    number = _asked_number(raw)
    return in_progress.contract_of(session, number) if number else None
