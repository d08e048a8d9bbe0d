"""`manage.py export_group <token>`: a group's whole history as JSON, and its hands as CSV."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from mighty_ledger.models import Group
from mighty_ledger.reads.exports import group_export, hands_csv


class Command(BaseCommand):
    help = "Write a group's whole history (deleted rows and revisions included) as JSON."

    def add_arguments(self, parser):
        parser.add_argument(
            "token", help="The group's edit or view token (one that begins with - goes after --)."
        )
        parser.add_argument("--output", help="Write the JSON here instead of to stdout.")
        parser.add_argument("--csv", dest="csv_path", help="Also write the live hands, one row each, to this CSV file.")

    def handle(self, *args, token: str, output: str | None, csv_path: str | None, **options) -> None:
        # deleted groups too: an export is how a deleted group is kept before anything else happens to it
        group = Group.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
        if group is None:
            raise CommandError("No group has this link.")
        # whoever runs manage.py holds the database, so the links go into the file
        text = json.dumps(group_export(group, include_tokens=True), ensure_ascii=False, indent=1)
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            sys.stdout.write(text + "\n")
        if csv_path:
            with open(csv_path, "w", encoding="utf-8", newline="") as out:
                rows = hands_csv(group, out)
            self.stderr.write(f"{rows} hands written to {csv_path}")
