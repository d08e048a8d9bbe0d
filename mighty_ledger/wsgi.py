"""WSGI entry point, as served by gunicorn: `gunicorn mighty_ledger.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mighty_ledger.settings")

application = get_wsgi_application()
