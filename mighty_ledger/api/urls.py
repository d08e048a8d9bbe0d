from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import views

app_name = "api"

SESSION = "v1/sessions/<int:session_id>"
HAND = f"{SESSION}/hands/<int:number>"

# included under api/ (mighty_ledger/urls.py)
urlpatterns = [
    # stateless calculators: no link needed
    path("v1/score", views.ScoreView.as_view(), name="score"),
    path("v1/check", views.CheckView.as_view(), name="check"),
    path("v1/auction/check", views.AuctionCheckView.as_view(), name="auction-check"),
    path("v1/redeal", views.RedealView.as_view(), name="redeal"),
    path("v1/next", views.NextHandView.as_view(), name="next-hand"),
    path("v1/systems", views.SystemListView.as_view(), name="systems"),
    path("v1/systems/<str:slug>", views.SystemDetailView.as_view(), name="system"),
    # a group's ledger: Authorization: Bearer <edit or view token>
    path("v1/groups", views.GroupCreateView.as_view(), name="groups"),
    path("v1/group", views.GroupDetailView.as_view(), name="group"),
    path("v1/players", views.PlayersView.as_view(), name="players"),
    path("v1/sessions", views.SessionsView.as_view(), name="sessions"),
    path(SESSION, views.SessionDetailView.as_view(), name="session"),
    path(f"{SESSION}/restore", views.SessionRestoreView.as_view(), name="session-restore"),
    path(f"{SESSION}/settlement", views.SettlementView.as_view(), name="settlement"),
    path(f"{SESSION}/hands", views.HandsView.as_view(), name="hands"),
    path(f"{SESSION}/events", views.EventCreateView.as_view(), name="events"),
    path(HAND, views.HandDetailView.as_view(), name="hand"),
    path(f"{HAND}/restore", views.HandRestoreView.as_view(), name="hand-restore"),
    path("v1/revisions", views.RevisionListView.as_view(), name="revisions"),
    # the schema and its docs page (Swagger UI from drf-spectacular-sidecar's static files)
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    # anything else under api/v1/ is a 404 in the error shape, not Django's HTML page
    re_path(r"^v1/", views.UnknownEndpointView.as_view(), name="unknown"),
]
