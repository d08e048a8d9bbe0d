"""The app's URLs plus /bench/bare/: the least a Django view can do, the baseline of the page figures."""

from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

TINY = Template("<!doctype html><title>{{ title }}</title><p>{{ greeting }}</p>")


# csrf_exempt: the load benchmark POSTs here as it POSTs hands to the API (which needs no CSRF token)
@csrf_exempt
def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(TINY.render(Context({"title": "bare", "greeting": "hello"})))


urlpatterns = [
    path("bench/bare/", bare, name="bench_bare"),
    path("", include("mighty_ledger.urls")),
]
