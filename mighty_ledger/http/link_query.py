"""The link's query, built once per database: a request pays for running it, not for composing it.

Every request that names a link runs the same statement (the group whose edit or view
token it is, and the live session its URL names). Through the ORM each request built
the query again and compiled it to SQL, which cost more than the database answering
it (docs/performance.md). Here the statement is written once from the models' own
columns, the rows come back through the same converters the ORM applies, and the
models are made with ``from_db`` as a queryset would make them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.db import connections
from django.db.models import Model

from mighty_ledger.models import Group, Session


class Columns:
    """One model's columns in a SELECT, and how to turn them back into an instance."""

    def __init__(self, model: type[Model], alias: str, connection, only: tuple[str, ...] = ()) -> None:
        quote = connection.ops.quote_name
        self.model = model
        self.fields = [field for field in model._meta.concrete_fields if not only or field.name in only]
        self.names = [field.attname for field in self.fields]
        self.sql = ", ".join(f"{quote(alias)}.{quote(field.column)}" for field in self.fields)
        self.converters = []
        for index, field in enumerate(self.fields):
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                self.converters.append((index, found, column))

    def _read(self, values: Sequence, connection) -> list:
        values = list(values)
        for index, converters, column in self.converters:
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return values

    def converted(self, values: Sequence, connection) -> dict:
        """The row's values by attribute name, as the ORM would read them (no instance made)."""
        return dict(zip(self.names, self._read(values, connection), strict=True))

    def instance(self, values: Sequence, connection) -> Model:
        return self.model.from_db(connection.alias, self.names, self._read(values, connection))


def _from_links(connection, *, with_session: bool, live: bool = True, joining: str = "") -> str:
    """FROM and WHERE of the link's query: the group whose edit or view token is the first two
    parameters (``g``), with the session the third names (``s``), and ``joining`` (more tables
    joined to the session); both live unless ``live`` is off."""
    quote = connection.ops.quote_name
    g, s = quote("g"), quote("s")
    groups = f"{quote(Group._meta.db_table)} {g}"
    by_link = f"({g}.{quote('edit_token')} = %s OR {g}.{quote('view_token')} = %s)"
    if not with_session:
        return f"FROM {groups} WHERE {by_link}" + (f" AND {g}.{quote('deleted_at')} IS NULL" if live else "")
    # the session the URL names, live, of a live group: at most one row, by the primary key
    return (f"FROM {quote(Session._meta.db_table)} {s} INNER JOIN {groups} "
            f"ON {s}.{quote('group_id')} = {g}.{quote('id')} {joining}"
            f"WHERE {by_link} AND {s}.{quote('id')} = %s "
            f"AND {s}.{quote('deleted_at')} IS NULL AND {g}.{quote('deleted_at')} IS NULL")


@dataclass(frozen=True)
class _Statements:
    """Every form of the link's query one database runs, written once for it."""

    session: Columns  # a session whole
    group: Columns
    with_session: str
    live_group: str
    any_group: str


@cache
def _statements(alias: str) -> _Statements:
    connection = connections[alias]
    session = Columns(Session, "s", connection)
    group = Columns(Group, "g", connection)
    return _Statements(
        session, group,
        with_session=f"SELECT {session.sql}, {group.sql} {_from_links(connection, with_session=True)}",
        live_group=f"SELECT {group.sql} {_from_links(connection, with_session=False)}",
        any_group=f"SELECT {group.sql} {_from_links(connection, with_session=False, live=False)}",
    )


def _one_row(alias: str, sql: str, params: tuple) -> tuple | None:
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def all_rows(alias: str, sql: str, params: tuple) -> list[tuple]:
    """Every row of a statement written once (the reads' own, beside the link's), as the database
    sent them: ``Columns`` turns them into what the ORM would have made."""
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def group_and_session(token: str, session_id: int, alias: str = "default") -> tuple[Group, Session] | None:
    """The live group the token is a link of, with the live session ``session_id`` of it, or None."""
    row = _one_row(alias, _statements(alias).with_session, (token, token, session_id))
    if row is None:
        return None
    group, session, _rest = linked(row, alias)
    return group, session


def with_the_link(alias: str, columns: str, joining: str) -> str:
    """A statement that reads more with the link's session, in the same round trip: the session's
    and its group's columns, then ``columns``, from the session the link reaches, with ``joining``
    (tables joined to the session, ``s``). Its parameters: those of ``columns`` and ``joining``,
    then the token twice and the session's id. ``linked`` reads each row it returns."""
    statements = _statements(alias)
    return (f"SELECT {statements.session.sql}, {statements.group.sql}, {columns} "
            f"{_from_links(connections[alias], with_session=True, joining=joining)}")


def linked(row: Sequence, alias: str = "default") -> tuple[Group, Session, Sequence]:
    """The group and the session at the head of a row of the link's query, and the rest of the row."""
    statements = _statements(alias)
    connection = connections[alias]
    width = len(statements.session.names)
    end = width + len(statements.group.names)
    session = statements.session.instance(row[:width], connection)
    group = statements.group.instance(row[width:end], connection)
    Session.group.field.set_cached_value(session, group)
    return group, session, row[end:]


def group(token: str, *, include_deleted: bool = False, alias: str = "default") -> Group | None:
    """The group the token is a link of (a live one unless ``include_deleted``), or None."""
    statements = _statements(alias)
    row = _one_row(alias, statements.any_group if include_deleted else statements.live_group, (token, token))
    return None if row is None else statements.group.instance(row, connections[alias])
