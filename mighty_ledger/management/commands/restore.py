"""`manage.py restore group|session|hand ...`: undo a soft delete, leaving a revision."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from mighty_ledger import services
from mighty_ledger.models import Group, Hand, Session


class Command(BaseCommand):
    help = "Restore a deleted group (by a link token), session (by id) or hand (session id and number)."

    def add_arguments(self, parser):
        parser.add_argument("what", choices=["group", "session", "hand"])
        parser.add_argument("key", help="group: a link token (one that begins with - after --); session or hand: the session id")
        parser.add_argument("number", nargs="?", type=int, help="hand: its number in the session")

    def handle(self, *args, what: str, key: str, number: int | None, **options) -> None:
        by = services.Actor("manage.py restore")
        if what == "group":
            group = Group.objects.filter(Q(edit_token=key) | Q(view_token=key)).first()
            if group is None:
                raise CommandError("No group has this link.")
            services.group_restore(group=group, by=by)
            self.stdout.write(f"Restored group {group.name!r}.")
            return
        session = Session.objects.filter(pk=key).first() if key.isdigit() else None
        if session is None:
            raise CommandError(f"No session {key}.")
        if what == "session":
            services.session_restore(session=session, by=by)
            self.stdout.write(f"Restored session {session.id} ({session}).")
            return
        hand = Hand.objects.filter(session=session, number=number).first()
        if hand is None:
            raise CommandError(f"No hand {number} in session {key}.")
        services.hand_restore(hand=hand, by=by)
        self.stdout.write(f"Restored hand {number} of session {key}; totals replayed.")
