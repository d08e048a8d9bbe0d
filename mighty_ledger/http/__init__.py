"""The plumbing every request passes through, whatever the page: which group and right a link
opens (``access``, one query), the ETags phones send back
(``etags``), the input guard, outages and headers (``middleware``), one-time request keys
(``request_keys``), rate limits, the cache, and links masked in logs (``redact``).

May import: the models and ``scoring``. Never either side (``reads``, ``services``) or a face
(``pages``, ``api``): everything above stands on this, not the other way.
"""
