from django.urls import path

from mighty_ledger.pages.views import rules

urlpatterns = [
    path("rules/", rules.systems_list, name="systems_list"),
    # before <slug>: "compare" is not a preset
    path("rules/compare/", rules.systems_compare, name="systems_compare"),
    path("rules/<slug:slug>/", rules.system_detail, name="system_detail"),
    path("redeal/", rules.redeal, name="redeal"),
]
