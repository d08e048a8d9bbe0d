from django.contrib import admin
from django.urls import include, path

from mighty_ledger import views

urlpatterns = [
    path("", views.home, name="home"),
    # set_language: the language switcher in base.html posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # the table app: groups, sessions, hands, scoreboard, settlement (reached by capability links)
    path("", include("mighty_ledger.views.table_urls")),
    # rules in words, preset comparison, the redeal calculator (public)
    path("", include("mighty_ledger.views.rules_urls")),
    # a group's history as a JSON download
    path("", include("mighty_ledger.views.export_urls")),
    # the REST API and its schema
    path("", include("mighty_ledger.api.urls")),
]
