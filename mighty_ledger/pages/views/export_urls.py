"""Downloads of a group's history (reached through a link, view right is enough)."""

from django.urls import path

from mighty_ledger.pages.views import export

urlpatterns = [
    path("g/<str:token>/export.json", export.group_export_json, name="group_export"),
]
