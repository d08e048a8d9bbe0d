"""Bringing a group's history in from a spreadsheet (the edit link only)."""

from django.urls import path

from mighty_ledger.pages.views import sheet_imports

urlpatterns = [
    path("g/<str:token>/import/", sheet_imports.sheet_import_page, name="sheet_import"),
    path("g/<str:token>/import/<str:import_id>/undo", sheet_imports.sheet_import_undo_page, name="sheet_import_undo"),
]
