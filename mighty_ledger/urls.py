from django.contrib import admin
from django.urls import include, path

from mighty_ledger.pages import views
from mighty_ledger.pages.views import app

# a server fault's page in the reader's language (Django's own renders 500.html without the request)
handler500 = "mighty_ledger.pages.views.errors.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    # the REST API and its schema; first, because API clients record hands all evening and
    # every pattern before theirs is tried in turn
    path("api/", include("mighty_ledger.api.urls")),
    # set_language: the language switcher in base.html posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # the installable app: its manifest, its service worker (at the root, so its scope is the
    # whole site), where the installed icon opens, the page for what was never kept offline
    path("manifest.webmanifest", app.manifest, name="app_manifest"),
    path("sw.js", app.service_worker, name="app_service_worker"),
    path("start", app.start, name="app_start"),
    path("offline/", app.offline, name="app_offline"),
    path("g/<str:token>/s/<int:pk>/hands/entry/", app.hand_entry, name="hand_entry"),
    path("g/<str:token>/s/<int:pk>/playing/entry/", app.contract_entry, name="contract_entry"),
    # the table app: groups, sessions, hands, scoreboard, settlement (reached by capability links)
    path("", include("mighty_ledger.pages.views.table_urls")),
    # rules in words, preset comparison, the redeal calculator (public)
    path("", include("mighty_ledger.pages.views.rules_urls")),
    # a group's history as a JSON download
    path("", include("mighty_ledger.pages.views.export_urls")),
    # past hands brought in from a spreadsheet, previewed first, and undone whole
    path("", include("mighty_ledger.pages.views.sheet_imports_urls")),
    # statistics, player pages, charts, the hands as CSV and payments
    path("", include("mighty_ledger.pages.views.stats_urls")),
    # the rating table, seasons, and the invitation to the table by QR code
    path("", include("mighty_ledger.pages.views.ratings_urls")),
    # a club night: its page, the draw, the big screen, one settlement
    path("", include("mighty_ledger.pages.views.nights_urls")),
]
