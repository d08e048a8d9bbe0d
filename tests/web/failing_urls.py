"""The app's URLs and one view that always fails, for the 500 page's test (test_not_found_page.py)."""

from django.urls import path

from mighty_ledger.urls import handler500
from mighty_ledger.urls import urlpatterns as app_urlpatterns


def broken(request):
    raise RuntimeError("a fault of the server's, on purpose")


urlpatterns = [path("broken/", broken), *app_urlpatterns]
__all__ = ["handler500", "urlpatterns"]
