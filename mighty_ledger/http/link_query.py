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
from functools import cache

from django.db import connections
from django.db.models import Model

from mighty_ledger.models import Group, Session


class _Columns:
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

    def instance(self, values: Sequence, connection) -> Model:
        values = list(values)
        for index, converters, column in self.converters:
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, self.names, values)


@cache
def _revision_statement(alias: str) -> tuple[str, _Columns]:
    """The link's query as a kept answer needs it: the session's identity and revision, and which link."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    stamp = _Columns(Session, "s", connection, only=("id", "created_at", "revision"))
    sql = (
        f"SELECT {stamp.sql}, {quote('g')}.{quote('edit_token')} FROM {quote(Session._meta.db_table)} {quote('s')} "
        f"INNER JOIN {quote(Group._meta.db_table)} {quote('g')} "
        f"ON {quote('s')}.{quote('group_id')} = {quote('g')}.{quote('id')} "
        f"WHERE ({quote('g')}.{quote('edit_token')} = %s OR {quote('g')}.{quote('view_token')} = %s) "
        f"AND {quote('s')}.{quote('id')} = %s "
        f"AND {quote('s')}.{quote('deleted_at')} IS NULL AND {quote('g')}.{quote('deleted_at')} IS NULL"
    )
    return sql, stamp


def session_revision(token: str, session_id: int, alias: str = "default") -> tuple[Session, bool] | None:
    """The live session ``session_id`` of the live group the token is a link of, holding only its
    id, creation and revision, and whether the token is the edit link; None when it opens nothing."""
    sql, stamp = _revision_statement(alias)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(sql, (token, token, session_id))
        row = cursor.fetchone()
    if row is None:
        return None
    return stamp.instance(row[:-1], connection), row[-1] == token


@cache
def _statements(alias: str) -> tuple[str, str, str, _Columns, _Columns]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    groups, sessions = Group._meta.db_table, Session._meta.db_table
    group_columns = _Columns(Group, "g", connection)
    session_columns = _Columns(Session, "s", connection)
    by_link = f"({quote('g')}.{quote('edit_token')} = %s OR {quote('g')}.{quote('view_token')} = %s)"
    # the session the URL names, live, of a live group: at most one row, by the primary key
    with_session = (
        f"SELECT {session_columns.sql}, {group_columns.sql} FROM {quote(sessions)} {quote('s')} "
        f"INNER JOIN {quote(groups)} {quote('g')} ON {quote('s')}.{quote('group_id')} = {quote('g')}.{quote('id')} "
        f"WHERE {by_link} AND {quote('s')}.{quote('id')} = %s "
        f"AND {quote('s')}.{quote('deleted_at')} IS NULL AND {quote('g')}.{quote('deleted_at')} IS NULL"
    )
    live_group = (f"SELECT {group_columns.sql} FROM {quote(groups)} {quote('g')} WHERE {by_link} "
                  f"AND {quote('g')}.{quote('deleted_at')} IS NULL")
    any_group = f"SELECT {group_columns.sql} FROM {quote(groups)} {quote('g')} WHERE {by_link}"
    return with_session, live_group, any_group, session_columns, group_columns


def group_and_session(token: str, session_id: int, alias: str = "default") -> tuple[Group, Session] | None:
    """The live group the token is a link of, with the live session ``session_id`` of it, or None."""
    with_session, _, _, session_columns, group_columns = _statements(alias)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(with_session, (token, token, session_id))
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(session_columns.names)
    session = session_columns.instance(row[:width], connection)
    group = group_columns.instance(row[width:], connection)
    Session.group.field.set_cached_value(session, group)
    return group, session


def group(token: str, *, include_deleted: bool = False, alias: str = "default") -> Group | None:
    """The group the token is a link of (a live one unless ``include_deleted``), or None."""
    _, live_group, any_group, _, group_columns = _statements(alias)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(any_group if include_deleted else live_group, (token, token))
        row = cursor.fetchone()
    return None if row is None else group_columns.instance(row, connection)
