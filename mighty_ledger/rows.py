"""Plain SQL for the statements every request to record a hand runs.

The ORM compiles each query again on every request. On the path that records a
hand (find the link, fetch and lock the session, insert the hand, update the
session, keep a revision) compiling cost more CPU than everything else the
request does, scoring included. These helpers write each statement once per
database vendor, model and column list, and take every value through the
model field's own conversions (``get_db_prep_save`` going in; the backend's
and the field's converters coming out, as the ORM's compiler applies them), so
a row holds exactly what ``Model.save()`` would have stored and a model read
here equals one read through the ORM. The rest of the app uses the ORM: only
the hot path is worth the extra care.

No signals are sent (the app connects none), and ``where`` clauses are written
in this package, never built from input: values always travel as parameters.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

M = TypeVar("M", bound=models.Model)
J = TypeVar("J", bound=models.Model)


def _db() -> BaseDatabaseWrapper:
    # this thread's connection itself: django.db.connection is a proxy that looks it up on every attribute
    return connections[DEFAULT_DB_ALIAS]


# Statements depend only on the vendor's quoting and features, so they are
# built once per vendor, model and shape (a handful in all) and kept.


def _column_list(db: BaseDatabaseWrapper, fields) -> str:
    return ", ".join(db.ops.quote_name(field.column) for field in fields)


def _marks(fields) -> str:
    return ", ".join(["%s"] * len(fields))


def _new_row_fields(model: type[models.Model], *, leave: tuple = ()) -> tuple[models.Field, ...]:
    # every concrete field an INSERT names: all but the auto primary key (and any left out)
    return tuple(f for f in model._meta.concrete_fields if f is not model._meta.pk and f not in leave)


@cache
def _select_sql(vendor: str, model: type[models.Model], where: str, lock: bool) -> str:
    db = _db()
    meta = model._meta
    sql = f"SELECT {_column_list(db, meta.concrete_fields)} FROM {db.ops.quote_name(meta.db_table)} WHERE {where}"
    # SQLite has no row locks: its IMMEDIATE transactions already serialise writers
    return sql + " FOR UPDATE" if lock and db.features.has_select_for_update else sql


@cache
def _insert_sql(vendor: str, model: type[models.Model]) -> tuple[tuple[models.Field, ...], str]:
    db = _db()
    meta = model._meta
    fields = _new_row_fields(model)
    table, pk = db.ops.quote_name(meta.db_table), db.ops.quote_name(meta.pk.column)
    return fields, f"INSERT INTO {table} ({_column_list(db, fields)}) VALUES ({_marks(fields)}) RETURNING {pk}"


@cache
def _update_sql(vendor: str, model: type[models.Model], names: tuple[str, ...],
                only_if: str) -> tuple[tuple[models.Field, ...], str]:
    db = _db()
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    assignments = ", ".join(f"{db.ops.quote_name(field.column)} = %s" for field in fields)
    table, pk = db.ops.quote_name(meta.db_table), db.ops.quote_name(meta.pk.column)
    return fields, f"UPDATE {table} SET {assignments} WHERE {pk} = %s AND ({only_if})"


@cache
def _converters(vendor: str, model: type[models.Model]) -> tuple[tuple[int, object, tuple, tuple], ...]:
    """The columns that need converting as they come out: position, column expression, and the
    converters in the order the ORM's compiler applies them (the backend's, then the field's).

    The backend's are its operations' methods; they are kept as plain functions and
    called with the calling thread's own connection, since connections are per thread.
    """
    db, table = _db(), model._meta.db_table
    plan = []
    for position, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(table)
        backend = tuple(_unbound(convert, db.ops) for convert in db.ops.get_db_converters(column))
        own = tuple(column.get_db_converters(db))
        if backend or own:
            plan.append((position, column, backend, own))
    return tuple(plan)


def _unbound(convert, ops):
    if getattr(convert, "__self__", None) is ops:
        return convert.__func__
    return lambda _ops, value, expression, connection: convert(value, expression, connection)


def _model_from(db: BaseDatabaseWrapper, model: type[M], row) -> M:
    values = list(row)
    for position, column, backend, own in _converters(db.vendor, model):
        value = values[position]
        for convert in backend:
            value = convert(db.ops, value, column, db)
        for convert in own:
            value = convert(value, column, db)
        values[position] = value
    return model.from_db(db.alias, None, values)


def fetch_one(model: type[M], where: str, params: list, *, lock: bool = False) -> M | None:
    """The one row matching ``where`` as a model instance, or None; ``lock`` holds it until commit."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_select_sql(db.vendor, model, where, lock), params)
        row = cursor.fetchone()
    return None if row is None else _model_from(db, model, row)


def fetch_one_with(model: type[M], joined: type[J], *, on: str, where: str,
                   params: list) -> tuple[M, J | None] | None:
    """The row of ``model`` matching ``where``, with the row of ``joined`` that matches ``on``
    (LEFT JOIN, so None when there is none), in one query; None when ``model`` has no match.

    In ``on`` and ``where`` the tables are called ``main`` and ``joined``.
    """
    db = _db()
    sql, width, joined_pk_at = _select_with_sql(db.vendor, model, joined, on, where)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    main_values, joined_values = row[:width], row[width:]
    return _model_from(db, model, main_values), (
        None if joined_values[joined_pk_at] is None else _model_from(db, joined, joined_values)
    )


@cache
def _select_with_sql(vendor: str, model: type[models.Model], joined: type[models.Model], on: str,
                     where: str) -> tuple[str, int, int]:
    """The statement, how many of its columns are ``model``'s, and where ``joined``'s key is among the rest."""
    db = _db()
    quote = db.ops.quote_name
    columns = ", ".join(
        f"{alias}.{quote(field.column)}"
        for alias, each in (("main", model), ("joined", joined))
        for field in each._meta.concrete_fields
    )
    sql = (
        f"SELECT {columns} FROM {quote(model._meta.db_table)} main "
        f"LEFT JOIN {quote(joined._meta.db_table)} joined ON {on} WHERE {where}"
    )
    return sql, len(model._meta.concrete_fields), joined._meta.concrete_fields.index(joined._meta.pk)


def insert(obj: M) -> M:
    """INSERT a new row as ``obj.save(force_insert=True)`` would, and set its primary key."""
    if obj.pk is not None:
        raise ValueError(f"{obj!r} already has a primary key")
    db = _db()
    fields, sql = _insert_sql(db.vendor, type(obj))
    with db.cursor() as cursor:
        cursor.execute(sql, _prepared(fields, obj, db, adding=True))
        (obj.pk,) = cursor.fetchone()
    obj._state.adding, obj._state.db = False, db.alias
    return obj


def insert_if_updated(row: M, then: models.Model, link: str, *, update_of: models.Model,
                      names: tuple[str, ...], only_if: str, params: list) -> bool:
    """UPDATE ``names`` of ``update_of`` where its row still matches ``only_if``; if it did,
    INSERT ``row`` and then ``then`` with ``then.<link>`` = ``row``. True when written.

    A hand is recorded as exactly this: the session's count and totals move on
    only if the session is still as it was read, and then the hand and the
    revision that points at it are added. On PostgreSQL it is one statement
    (data-modifying WITH clauses) and so atomic on its own, one round trip
    instead of three; on SQLite it is the three statements in one transaction.
    When the row no longer matches, nothing at all is written.
    """
    db = _db()
    if db.vendor != "postgresql":  # SQLite: no INSERT or UPDATE inside WITH
        update_fields, sql = _update_sql(db.vendor, type(update_of), names, only_if)
        with transaction.atomic(using=db.alias), db.cursor() as cursor:
            cursor.execute(sql, [*_prepared(update_fields, update_of, db, adding=False), update_of.pk, *params])
            if cursor.rowcount != 1:
                return False
            insert(row)
            setattr(then, link, row)
            insert(then)
        return True
    update_fields, row_fields, then_fields, sql = _insert_if_updated_sql(
        db.vendor, type(row), type(then), link, type(update_of), names, only_if
    )
    with db.cursor() as cursor:
        cursor.execute(sql, [
            *_prepared(update_fields, update_of, db, adding=False), update_of.pk, *params,
            *_prepared(row_fields, row, db, adding=True),
            *_prepared(then_fields, then, db, adding=True),
        ])
        ids = cursor.fetchone()
    if ids is None:
        return False
    row.pk, then.pk = ids
    setattr(then, link, row)
    for saved in (row, then):
        saved._state.adding, saved._state.db = False, db.alias
    return True


def _prepared(fields, obj: models.Model, db: BaseDatabaseWrapper, *, adding: bool) -> list:
    # what Model.save() sends for each field: pre_save (auto_now and the like), then the backend's form
    return [field.get_db_prep_save(field.pre_save(obj, adding), db) for field in fields]


@cache
def _insert_if_updated_sql(vendor: str, row_model, then_model, link: str, update_model, names: tuple[str, ...],
                           only_if: str) -> tuple[tuple[models.Field, ...], ...]:
    db = _db()
    quote = db.ops.quote_name
    update_fields, update_sql = _update_sql(vendor, update_model, names, only_if)
    link_field = then_model._meta.get_field(link)
    row_fields, then_fields = _new_row_fields(row_model), _new_row_fields(then_model, leave=(link_field,))
    row_pk = quote(row_model._meta.pk.column)
    # each INSERT takes its values from a SELECT over the step before, so a row to
    # update that no longer matches makes both inserts add nothing
    return update_fields, row_fields, then_fields, (
        f"WITH updated AS ({update_sql} RETURNING 1), "
        f"inserted AS (INSERT INTO {quote(row_model._meta.db_table)} ({_column_list(db, row_fields)}) "
        f"SELECT {_marks(row_fields)} FROM updated RETURNING {row_pk}) "
        f"INSERT INTO {quote(then_model._meta.db_table)} ({_column_list(db, (*then_fields, link_field))}) "
        f"SELECT {_marks(then_fields)}, inserted.{row_pk} FROM inserted "
        f"RETURNING {quote(link_field.column)}, {quote(then_model._meta.pk.column)}"
    )
