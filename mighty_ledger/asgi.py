"""ASGI entry point: the live event streams first, then the whole app.

`make run` (runserver, through daphne) and `make serve`'s stream server both
load ``application`` from here.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mighty_ledger.settings")

django_application = get_asgi_application()

from mighty_ledger.live.asgi import with_streams  # noqa: E402  (needs the apps loaded above)

application = with_streams(django_application)
