from django.contrib import admin
from django.urls import include, path

from mighty_ledger import views

urlpatterns = [
    path("", views.home, name="home"),
    # the REST API and its schema; first, because API clients record hands all evening and
    # every pattern before theirs is tried in turn
    path("api/", include("mighty_ledger.api.urls")),
    # set_language: the language switcher in base.html posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # the table app: groups, sessions, hands, scoreboard, settlement (reached by capability links)
    path("", include("mighty_ledger.views.table_urls")),
    # rules in words, preset comparison, the redeal calculator (public)
    path("", include("mighty_ledger.views.rules_urls")),
    # a group's history as a JSON download
    path("", include("mighty_ledger.views.export_urls")),
    # statistics, player pages, charts, the hands as CSV and payments
    path("", include("mighty_ledger.views.stats_urls")),
]
