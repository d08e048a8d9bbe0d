"""Rate limits per client address on the calculators and on group creation.

Rules are data in settings.RATE_LIMITS: a method, path regexes, a limit and a
window in seconds. Counts live in Django's default cache in fixed windows
(``cache.add`` then ``cache.incr``, both atomic in Redis), so with REDIS_URL
every gunicorn worker sees the same count.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.cache import BaseCache, cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


@dataclass(frozen=True)
class Rule:
    name: str
    method: str
    paths: tuple[re.Pattern, ...]
    limit: int
    window: int  # seconds

    def matches(self, method: str, path: str) -> bool:
        return method == self.method and any(pattern.search(path) for pattern in self.paths)


@lru_cache(maxsize=8)
def _compile(rules: tuple[tuple, ...]) -> tuple[Rule, ...]:
    return tuple(
        Rule(name, method.upper(), tuple(re.compile(p) for p in paths), limit, window)
        for name, method, paths, limit, window in rules
    )


def rules_from_settings() -> tuple[Rule, ...]:
    # read on every request, so override_settings in a test takes effect at once
    return _compile(tuple(
        (r["name"], r["method"], tuple(r["paths"]), r["limit"], r["window"]) for r in settings.RATE_LIMITS
    ))


def client_address(request: HttpRequest) -> str:
    if settings.TRUSTED_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first
    return request.META.get("REMOTE_ADDR", "")


def count_hit(counts: BaseCache, rule: Rule, address: str, now: float) -> tuple[bool, int]:
    """Count one request; (allowed, seconds until the window ends)."""
    window_index = int(now // rule.window)
    retry_after = max(1, math.ceil((window_index + 1) * rule.window - now))
    key = f"ratelimit:{rule.name}:{window_index}:{address}"
    # a little past the window, so a key never expires between add and incr
    counts.add(key, 0, timeout=rule.window + 5)
    try:
        count = counts.incr(key)
    except ValueError:  # evicted between add and incr: this request starts the window again
        counts.set(key, 1, timeout=rule.window + 5)
        count = 1
    return count <= rule.limit, retry_after


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    message = ngettext(
        "Too many requests from your address; try again in %(seconds)d second.",
        "Too many requests from your address; try again in %(seconds)d seconds.",
        retry_after,
    ) % {"seconds": retry_after}
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"errors": [{"field": "", "code": "rate_limited", "message": message}]}, status=429
        )
    else:
        response = render(request, "rate_limited.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response


class RateLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.RATE_LIMITS_ENABLED:
            for rule in rules_from_settings():
                if rule.matches(request.method, request.path_info):
                    allowed, retry_after = count_hit(cache, rule, client_address(request), time.time())
                    if not allowed:
                        return too_many(request, retry_after)
        return self.get_response(request)
