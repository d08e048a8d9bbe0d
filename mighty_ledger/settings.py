"""Settings for Mighty Ledger, all in one file and driven by environment variables.

Development needs no environment at all: DEBUG is on, the database is SQLite in
the repository root and the cache is in memory. Production sets DEBUG=false and
must then give SECRET_KEY and ALLOWED_HOSTS, or the server refuses to start.

Variables: DEBUG, SECRET_KEY, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, DATABASE_URL,
DATABASE_PREPARED_STATEMENTS, REDIS_URL, SECURE_COOKIES, LOG_LEVEL, STATIC_ROOT,
LIVE_HEARTBEAT_SECONDS; for HTTPS: SECURE_SSL_REDIRECT,
SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD,
SECURE_PROXY_SSL_HEADER; for rate limits: RATE_LIMITS_ENABLED, TRUSTED_PROXY,
RATE_LIMIT_CALCULATORS_PER_MINUTE, RATE_LIMIT_GROUPS_PER_HOUR.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # First, so that runserver is daphne's: an ASGI server, which holds the live event streams open.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "mighty_ledger",
]

MIDDLEWARE = [
    # HEAD wherever GET is: every view below sees a GET, and the body is dropped on the way out
    "mighty_ledger.http.middleware.HeadAsGetMiddleware",
    # every 4xx under /api/ in the error shape, Django's own answers included (a Host not allowed)
    "mighty_ledger.http.middleware.ApiErrorShapeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # after whitenoise, so static files keep their long cache and are never counted
    "mighty_ledger.http.middleware.NoStoreMiddleware",
    "mighty_ledger.http.middleware.RequestGuardMiddleware",
    "csp.middleware.CSPMiddleware",
    "mighty_ledger.http.ratelimit.RateLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Django's, trusting Sec-Fetch-Site where no-referrer leaves Origin null
    "mighty_ledger.http.middleware.SameOriginCsrfMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # templates/404.html under DEBUG too (make run); inside the locale, session and messages
    # middleware that the page's template needs, and inside CommonMiddleware, whose missing-slash
    # redirect still comes first
    "mighty_ledger.http.middleware.NotFoundPageMiddleware",
    # last, so it sees a view's database error before anything else turns it into a 500
    "mighty_ledger.http.middleware.DatabaseOutageMiddleware",
]

ROOT_URLCONF = "mighty_ledger.urls"
WSGI_APPLICATION = "mighty_ledger.wsgi.application"
# the live event streams, then the app (runserver and `make serve`'s stream server)
ASGI_APPLICATION = "mighty_ledger.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
            ],
            # the pages' own tags live with the pages (mighty_ledger/pages/templatetags), where
            # Django does not look by itself: every module there is a library of that name
            "libraries": {
                path.stem: f"mighty_ledger.pages.templatetags.{path.stem}"
                for path in (BASE_DIR / "mighty_ledger" / "pages" / "templatetags").glob("*.py")
                if path.stem != "__init__"
            },
        },
    },
]

# SQLite by default: nothing to install for development or a single table's phone.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two players saving a hand at once: the second writer waits for the lock
    # (IMMEDIATE takes it at BEGIN) instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        # WAL lets pages read while a hand is being written.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests with real threads (concurrent hand posts) need a file: an in-memory test
    # database is private to its connection. The pid keeps two test runs apart.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test_db_{os.getpid()}.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_PREPARED_STATEMENTS", True):
    # PostgreSQL parses and plans every statement it is sent as text. With the
    # parameters bound on the server, psycopg prepares a statement once a
    # connection has run it a few times; recording a hand is the same two
    # statements all evening, and planning them was a third of PostgreSQL's
    # work per hand. Turn it off behind a pooler in transaction mode (pgbouncer
    # before 1.21), where a prepared statement may be gone on the next server.
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 5}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
# seconds between an event stream's keep-alive lines: under the idle timeouts of proxies and
# phone networks (often 30-60 s)
LIVE_HEARTBEAT_SECONDS = float(env_str("LIVE_HEARTBEAT_SECONDS", "15"))
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, failing open: with Redis down, pages are served uncached and
            # the rate limits let requests by, with a warning in the log (mighty_ledger/http/cache.py)
            "BACKEND": "mighty_ledger.http.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            # a Redis that does not answer must cost a request a fraction of a second, not 30
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The statistics' counts and the ratings, kept session by session and brought up to date hand by
# hand (mighty_ledger/http/cache.py: remembered), are kept in the database beside the hands: after
# a restart or with Redis emptied, the statistics read tonight's new hands, not a group's every hand
# again (make bench, pages: first view after a restart). The table is made by migration 0020.
CACHES["kept"] = {
    "BACKEND": "django.core.cache.backends.db.DatabaseCache",
    "LOCATION": "mighty_ledger_kept",
    # an entry per session and per selection a page has shown; Django's default of 300 would cull
    # a club's figures every evening
    "OPTIONS": {"MAX_ENTRIES": 100_000},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ko", _("Korean")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# where collectstatic writes and whitenoise reads; a deployment may keep it outside the checkout
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names need `collectstatic`; development serves the files as they are.
        # Production's are whitenoise's, with the modules' imports of each other hashed too.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "mighty_ledger.http.static_files.StaticFiles",
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "mighty_ledger.api.exceptions.api_exception_handler",
    # RATE_LIMITS below, counted by django-ratelimit in the shared cache
    "DEFAULT_THROTTLE_CLASSES": ["mighty_ledger.http.ratelimit.RuleThrottle"],
}

# Bodies the API takes: a hand is about 1 KB; the JSON parser recurses, so depth is capped too
API_MAX_BODY_BYTES = 64 * 1024
# a spreadsheet of past hands (POST /api/v1/imports): the 5 MB file services/spreadsheets.py reads, and its form
API_MAX_UPLOAD_BYTES = 6 * 1024 * 1024
API_MAX_JSON_DEPTH = 32
SPECTACULAR_SETTINGS = {
    "TITLE": "Mighty Ledger API",
    "DESCRIPTION": "Score and check hands of Mighty; keep a group's ledger.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from drf-spectacular-sidecar, so the docs page needs no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # a settlement and a payment count in the same units: one enum in the schema
    "ENUM_NAME_OVERRIDES": {"SettlementUnitEnum": ["money", "chips", "points"]},
}

SECURE_COOKIES = env_bool("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
LANGUAGE_COOKIE_SECURE = SECURE_COOKIES
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# pages are full of capability links: a click out must not carry one in its Referer
SECURE_REFERRER_POLICY = "no-referrer"

# No inline script or handler anywhere: scripts are files in static/js/. A template
# that cannot do without one gives it nonce="{{ request.csp_nonce }}". Inline styles
# stay allowed: htmx adds its indicator style, and a style cannot act on the page.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

# HTTPS. Production redirects plain HTTP by default; turn it off only when the
# proxy in front already redirects (or for a local `make serve` over HTTP).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# A proxy that ends TLS tells Django so in a header, e.g. "HTTP_X_FORWARDED_PROTO,https".
# Only set it when the proxy always overwrites that header, or a client could forge it.
_proxy_ssl_header = env_list("SECURE_PROXY_SSL_HEADER", [])
if _proxy_ssl_header:
    if len(_proxy_ssl_header) != 2:
        raise ImproperlyConfigured("SECURE_PROXY_SSL_HEADER must be 'HEADER,value', e.g. HTTP_X_FORWARDED_PROTO,https")
    SECURE_PROXY_SSL_HEADER = tuple(_proxy_ssl_header)
# HSTS: a year wherever the site is served over HTTPS (it redirects plain HTTP, or a TLS proxy
# says so in SECURE_PROXY_SSL_HEADER, as deploy/ ships it): a phone that once opened a link is
# then never sent to http://, where the link would travel in clear. Off (0) on a plain-HTTP trial
# (SECURE_SSL_REDIRECT=false and no proxy header), and `check --deploy` says so (security.W004);
# SECURE_HSTS_SECONDS sets another value (start small, e.g. 3600, if HTTPS is not yet known to
# work: once a browser has seen it, the site cannot go back to plain HTTP for that long).
_behind_tls = SECURE_SSL_REDIRECT or bool(_proxy_ssl_header)
SECURE_HSTS_SECONDS = int(env_str("SECURE_HSTS_SECONDS", "31536000" if _behind_tls and not DEBUG else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# security.W003 looks for Django's CSRF middleware by name; ours is that class with one
# more way to tell the site's own forms (mighty_ledger.http.middleware.SameOriginCsrfMiddleware)
SILENCED_SYSTEM_CHECKS = ["security.W003"]
# includeSubDomains and preload (security.W005, W021) are about the whole domain, which only its
# owner knows: asked of the operator, not assumed; the checks speak again once either is set
SILENCED_SYSTEM_CHECKS += [check for check, name in (("security.W005", "SECURE_HSTS_INCLUDE_SUBDOMAINS"),
                                                     ("security.W021", "SECURE_HSTS_PRELOAD"))
                           if name not in os.environ]

# Rate limits per client address (mighty_ledger/http/ratelimit.py), counted by
# django-ratelimit in the default cache: with REDIS_URL every gunicorn worker
# shares the counts; the in-memory cache counts per process, right only for a
# single-process server, so gunicorn.conf.py refuses several workers without Redis.
# On by default in production, off in development and tests.
RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS_ENABLED", not DEBUG)
# Behind a proxy every request comes from the proxy's address: then count the
# first X-Forwarded-For hop, which the proxy must set (not append to).
TRUSTED_PROXY = env_bool("TRUSTED_PROXY", False)
RATE_LIMITS = {
    # the stateless calculators, API and page: cheap one by one, but open to anyone
    "calculators": {
        "rate": f"{int(env_str('RATE_LIMIT_CALCULATORS_PER_MINUTE', '120'))}/m",
        "views": {"api:score": "POST", "api:check": "POST", "api:redeal": "POST",
                  "api:auction-check": "POST", "api:next-hand": "POST", "redeal": "GET"},
    },
    # a new group is a new pair of links and rows; a table needs one, not hundreds
    "group_create": {
        "rate": f"{int(env_str('RATE_LIMIT_GROUPS_PER_HOUR', '20'))}/h",
        "views": {"api:groups": "POST", "group_create": "POST"},
    },
}
# django-ratelimit: on whenever RATE_LIMITS_ENABLED is, and a cache that cannot count lets requests by
RATELIMIT_ENABLE = True
RATELIMIT_FAIL_OPEN = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a link's token is its whole right: "Not Found: /g/<token>/" and the like are written masked
    "filters": {"mask_links": {"()": "mighty_ledger.http.redact.MaskLinks"},
                # a database outage is one line (middleware.OutageNotes), not one per request
                "quiet_outage": {"()": "mighty_ledger.http.middleware.QuietOutage"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_links"]}},
    "loggers": {
        # masked at the source too, for whatever other handler a deployment adds
        "django.request": {"filters": ["mask_links", "quiet_outage"]},
        "django.server": {"handlers": ["console"], "filters": ["mask_links"], "level": "INFO", "propagate": False},
        # runserver's request lines (daphne's): left to propagate, Django's own "django" handler
        # printed each line unmasked before ours printed it masked
        "django.channels.server": {"handlers": ["console"], "filters": ["mask_links"], "level": "INFO",
                                   "propagate": False},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
