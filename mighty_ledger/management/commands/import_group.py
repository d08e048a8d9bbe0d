"""`manage.py import_group FILE`: restore a group written by export_group, exactly as stored."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from mighty_ledger.services.imports import ImportRefused, group_import


class Command(BaseCommand):
    help = "Restore a group from an export_group JSON file; stored results are kept, never re-scored."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The JSON file export_group wrote ('-' for stdin).")
        parser.add_argument("--new-tokens", action="store_true",
                            help="Give the group new links (needed when its links already exist here).")

    def handle(self, *args, file: str, new_tokens: bool, **options) -> None:
        try:
            if file == "-":
                document = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as source:
                    document = json.load(source)
        except (OSError, json.JSONDecodeError) as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        try:
            group = group_import(document=document, new_tokens=new_tokens)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        hands = sum(len(s["hands"]) for s in document["sessions"])
        self.stdout.write(f"Imported {group.name!r}: {len(document['sessions'])} sessions, {hands} hands.")
        self.stdout.write(f"edit link token: {group.edit_token}")
        self.stdout.write(f"view link token: {group.view_token}")
