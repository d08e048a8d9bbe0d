from django.urls import path

from mighty_ledger.pages.views import guide, rules

urlpatterns = [
    path("rules/", rules.systems_list, name="systems_list"),
    # before <slug>: "compare" is not a preset
    path("rules/compare/", rules.systems_compare, name="systems_compare"),
    path("rules/<slug:slug>/", rules.system_detail, name="system_detail"),
    path("redeal/", rules.redeal, name="redeal"),
    # the players' guide (docs/table.md) and its pictures
    path("guide/", guide.guide, name="guide"),
    path("guide/pictures/<path:name>", guide.guide_picture, name="guide_picture"),
]
