"""The table app's URLs. Everything under /g/<token>/ is reached through a capability link."""

from django.urls import path

from ..live import views as live
from . import in_progress, table

urlpatterns = [
    path("g/new/", table.group_create, name="group_create"),
    path("g/<str:token>/", table.group_page, name="group_page"),
    path("g/<str:token>/links/<str:which>/rotate/", table.group_rotate, name="group_rotate"),
    path("g/<str:token>/players/add/", table.player_add, name="player_add"),
    path("g/<str:token>/sessions/new/", table.session_new, name="session_new"),
    path("g/<str:token>/s/<int:pk>/", table.session_board, name="session_board"),
    # live updates: what changed, as server-sent events (mighty_ledger/live)
    path("g/<str:token>/events/", live.group_events, name="group_events"),
    path("g/<str:token>/s/<int:pk>/events/", live.session_events, name="session_events"),
    path("g/<str:token>/s/<int:pk>/settle/", table.session_settle, name="session_settle"),
    path("g/<str:token>/s/<int:pk>/history/", table.session_history, name="session_history"),
    path("g/<str:token>/s/<int:pk>/rules/", table.session_rules, name="session_rules"),
    path("g/<str:token>/s/<int:pk>/delete/", table.session_delete, name="session_delete"),
    path("g/<str:token>/s/<int:pk>/restore/", table.session_restore, name="session_restore"),
    path("g/<str:token>/s/<int:pk>/hands/new/", table.hand_new, name="hand_new"),
    path("g/<str:token>/s/<int:pk>/hands/preview/", table.hand_preview, name="hand_preview"),
    path("g/<str:token>/s/<int:pk>/events/new/", table.event_new, name="event_new"),
    # the hand in progress: the contract when the auction ends, completed or thrown in later
    path("g/<str:token>/s/<int:pk>/playing/new/", in_progress.contract_new, name="contract_new"),
    path("g/<str:token>/s/<int:pk>/playing/preview/", in_progress.contract_preview, name="contract_preview"),
    path("g/<str:token>/s/<int:pk>/playing/<int:contract_id>/complete/", in_progress.contract_complete,
         name="contract_complete"),
    path("g/<str:token>/s/<int:pk>/playing/<int:contract_id>/abandon/", in_progress.contract_abandon,
         name="contract_abandon"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/", table.hand_detail, name="hand_detail"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/edit/", table.hand_edit, name="hand_edit"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/delete/", table.hand_delete, name="hand_delete"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/restore/", table.hand_restore, name="hand_restore"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/revert/<int:revision>/", table.hand_revert, name="hand_revert"),
]
