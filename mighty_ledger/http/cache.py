"""Django's Redis cache, failing open: a Redis outage never takes the ledger down.

Everything the cache holds can be worked out again (rendered pages, rate-limit
counts; the statistics' counts and the ratings kept by ``remembered`` are in the
database, settings.CACHES["kept"]), so while
Redis does not answer, reads miss, writes are dropped and counters report nothing
(the rate limits then let requests through). For ``RETRY_AFTER_SECONDS`` after a
failure Redis is not asked at all, so a dead Redis costs each request nothing rather
than a connect timeout. The outage is one line in the log, then one every ten seconds
with the count of what went without it (middleware.redis_notes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from mighty_ledger.http.middleware import redis_notes

RETRY_AFTER_SECONDS = 5.0

# a page drawn for one revision serves the table's phones within seconds of the change, and the
# next change makes it useless: ten minutes keeps a table's last revision or two, not a day of them
COPY_OF_A_REVISION_SECONDS = 600
ROW_SECONDS = 86400  # a part of the board that shows no revision (the seats, who deals next)

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


# What a read works out and keeps to go on from next time (the statistics' counts, the ratings) is
# kept through these two: a memo of the rows, which may be dropped and worked out again at any moment.
def remembered(key: str, bring_up_to_date: Callable[[T | None], T], timeout: int) -> T:
    """The value kept under ``key``, brought up to date: ``bring_up_to_date`` is given what is kept
    (None when nothing is) and returns the value as it is now, kept again unless it is the very
    object it was given (nothing moved). One cache read, at most one write."""
    kept = caches["kept"].get(key)
    value = bring_up_to_date(kept)
    if value is not kept:
        caches["kept"].set(key, value, timeout)
    return value


def remembered_many(keys: dict[K, str], bring_up_to_date: Callable[[dict[K, T]], dict[K, T]],
                    timeout: int) -> dict[K, T]:
    """Several values at once, each under its own key (``keys``: what each is, and its key): given
    those kept, by what they are (the others missing), ``bring_up_to_date`` returns every one as
    it is now; those that are not the very object given are kept again. One cache read, at most
    one write."""
    found = caches["kept"].get_many(list(keys.values()))
    kept = {name: found[key] for name, key in keys.items() if key in found}
    values = bring_up_to_date(kept)
    moved = {keys[name]: value for name, value in values.items() if value is not kept.get(name)}
    if moved:
        caches["kept"].set_many(moved, timeout)
    return values


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._down_until = 0.0
        self._why: Exception = RedisError()

    def _attempt(self, operation: str, call, fallback):
        if time.monotonic() < self._down_until:
            redis_notes.note("cache " + operation, self._why)
            return fallback
        try:
            return call()
        except (RedisError, OSError) as error:
            self._down_until, self._why = time.monotonic() + RETRY_AFTER_SECONDS, error
            redis_notes.note("cache " + operation, error)
            return fallback

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._attempt("add", lambda: super(FailOpenRedisCache, self).add(key, value, timeout, version), False)

    def get(self, key, default=None, version=None):
        return self._attempt("get", lambda: super(FailOpenRedisCache, self).get(key, default, version), default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._attempt("set", lambda: super(FailOpenRedisCache, self).set(key, value, timeout, version), None)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._attempt("touch", lambda: super(FailOpenRedisCache, self).touch(key, timeout, version), False)

    def delete(self, key, version=None):
        return self._attempt("delete", lambda: super(FailOpenRedisCache, self).delete(key, version), False)

    def get_many(self, keys, version=None):
        return self._attempt("get_many", lambda: super(FailOpenRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._attempt("has_key", lambda: super(FailOpenRedisCache, self).has_key(key, version), False)

    def incr(self, key, delta=1, version=None):
        # None, not a number: a caller that counts (django-ratelimit) reads it as "no count" and lets the request by
        return self._attempt("incr", lambda: super(FailOpenRedisCache, self).incr(key, delta, version), None)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._attempt("set_many", lambda: super(FailOpenRedisCache, self).set_many(data, timeout, version),
                             list(data))

    def delete_many(self, keys, version=None):
        return self._attempt("delete_many", lambda: super(FailOpenRedisCache, self).delete_many(keys, version), None)

    def clear(self):
        return self._attempt("clear", lambda: super(FailOpenRedisCache, self).clear(), False)
