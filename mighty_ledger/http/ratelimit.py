"""Rate limits per client address: the calculators and group creation, pages and API alike.

The rules are data in ``settings.RATE_LIMITS``: a name, a rate ("120/m") and the
URL names it covers with their method. Counting is django-ratelimit's
(``cache.add`` then ``cache.incr`` in fixed windows, both atomic in Redis, so
every gunicorn worker sees one count); the API applies it as a DRF throttle
(``RuleThrottle``, the default throttle class), pages through ``RateLimitMiddleware``.

A cache that cannot count lets the request through with a warning: a Redis
outage must never take the ledger down (see mighty_ledger/http/cache.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from django_ratelimit import ALL
from django_ratelimit.core import get_usage
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rule:
    name: str
    rate: str  # django-ratelimit's "count/period", e.g. "120/m", "20/h"
    views: dict[str, str]  # URL name -> the method counted on it


def rule_for(request: HttpRequest) -> Rule | None:
    """The rule that counts this request, if any; read per request so override_settings works at once."""
    match = getattr(request, "resolver_match", None)
    if not settings.RATE_LIMITS_ENABLED or match is None:
        return None
    for name, rule in settings.RATE_LIMITS.items():
        if rule["views"].get(match.view_name) == request.method:
            return Rule(name, rule["rate"], rule["views"])
    return None


def client_address(group: str, request: HttpRequest) -> str:
    """The address counted: the first X-Forwarded-For hop only behind a trusted proxy, which must set it."""
    if settings.TRUSTED_PROXY:
        first = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[0].strip()
        if first:
            return first
    return request.META.get("REMOTE_ADDR", "")


def seconds_to_wait(request: HttpRequest, rule: Rule) -> int | None:
    """Count this request under its rule; None when it may pass, else the seconds until the window ends."""
    try:
        # the rule has matched the method already; ALL keeps one count per rule, pages and API together
        usage = get_usage(request, group=rule.name, key=client_address, rate=rule.rate,
                          method=ALL, increment=True)
    except Exception:
        # a cache that cannot count must not refuse players: fail open, and say so
        logger.warning("rate limit %s not counted: the cache failed", rule.name, exc_info=True)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, usage["time_left"])


def too_many_message(seconds: int) -> str:
    return ngettext(
        "Too many requests from your address; try again in %(seconds)d second.",
        "Too many requests from your address; try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


class RuleThrottle(BaseThrottle):
    """DRF's throttling for the API views a rule names; 429 in the error shape (api/exceptions.py)."""

    def allow_request(self, request, view) -> bool:
        rule = rule_for(request)
        self.wait_seconds = seconds_to_wait(request, rule) if rule is not None else None
        return self.wait_seconds is None

    def wait(self) -> int | None:
        return self.wait_seconds


class RateLimitMiddleware:
    """The pages' side: the group form and the redeal calculator. API views count in RuleThrottle."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        rule = rule_for(request)
        if rule is None or request.resolver_match.namespace == "api":
            return None
        seconds = seconds_to_wait(request, rule)
        if seconds is None:
            return None
        response = render(request, "rate_limited.html", {"message": too_many_message(seconds)}, status=429)
        response["Retry-After"] = str(seconds)
        return response
