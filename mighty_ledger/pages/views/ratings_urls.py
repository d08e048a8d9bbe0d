"""The rating table, the group's seasons, and the board's invitation by QR code."""

from django.urls import path

from mighty_ledger.pages.views import invite, ratings

urlpatterns = [
    path("g/<str:token>/ratings/", ratings.group_ratings, name="group_ratings"),
    path("g/<str:token>/seasons/", ratings.group_seasons, name="group_seasons"),
    path("g/<str:token>/seasons/<int:season_id>/", ratings.season_change, name="season_change"),
    path("g/<str:token>/seasons/<int:season_id>/delete/", ratings.season_delete, name="season_delete"),
    path("g/<str:token>/s/<int:pk>/invite/", invite.session_invite, name="session_invite"),
]
