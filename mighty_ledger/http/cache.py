"""Django's Redis cache, failing open: a Redis outage never takes the ledger down.

Everything the cache holds can be worked out again (rendered pages, rate-limit
counts), so while Redis does not answer, reads miss, writes are dropped and
counters report nothing (the rate limits then let requests through). A warning
is logged, and for ``RETRY_AFTER_SECONDS`` after a failure Redis is not asked
at all, so a dead Redis costs each request nothing rather than a connect timeout.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5.0

# What is drawn for one revision of a session or group (a page, the live regions and their kept
# answer, a page's cached parts) serves the phones at the table within seconds of the change and
# is of no use once the next change comes: kept ten minutes, so the cache holds a table's last
# revision or two rather than a day of them (docs/performance.md, capacity). A page left unchanged
# longer is drawn again on its next view. A scoreboard row is kept a day: it serves the evening.
COPY_OF_A_REVISION_SECONDS = 600
ROW_SECONDS = 86400


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._down_until = 0.0

    def _attempt(self, operation: str, call, fallback):
        if time.monotonic() < self._down_until:
            return fallback
        try:
            return call()
        except (RedisError, OSError) as error:
            self._down_until = time.monotonic() + RETRY_AFTER_SECONDS
            logger.warning("cache unavailable, serving without it for %ss (%s failed: %s)",
                           RETRY_AFTER_SECONDS, operation, error)
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
