"""The spreadsheets a group brought its past hands in from: what the group page lists, with an undo."""

from __future__ import annotations

from mighty_ledger.models import Group, Session, SheetImport


def group_sheet_imports(group: Group) -> list[SheetImport]:
    """The group's imports still standing, newest first."""
    return list(group.sheet_imports.filter(undone_at__isnull=True).order_by("-created_at", "-id"))


def group_sheet_import(group: Group, key: str) -> SheetImport | None:
    """One of the group's imports by the id the API and the pages show; None when it is another's."""
    return group.sheet_imports.filter(key=key).first()


def sheet_import_sessions(made: SheetImport) -> list[Session]:
    """The sessions an import wrote, oldest first, as they stand."""
    return list(Session.objects.filter(pk__in=made.session_ids).order_by("played_on", "pk"))
