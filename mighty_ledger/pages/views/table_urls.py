"""The table app's URLs. Everything under /g/<token>/ is reached through a capability link."""

from django.urls import path

from mighty_ledger.live import views as live
from mighty_ledger.pages.views import groups, hands, in_progress, next_hand, sessions

urlpatterns = [
    path("g/new/", groups.group_create, name="group_create"),
    path("g/<str:token>/", groups.group_page, name="group_page"),
    path("g/<str:token>/links/<str:which>/rotate/", groups.group_rotate, name="group_rotate"),
    path("g/<str:token>/players/add/", groups.player_add, name="player_add"),
    path("g/<str:token>/sessions/new/", sessions.session_new, name="session_new"),
    path("g/<str:token>/s/<int:pk>/", sessions.session_board, name="session_board"),
    # live updates: what changed, as server-sent events (mighty_ledger/live)
    path("g/<str:token>/events/", live.group_events, name="group_events"),
    path("g/<str:token>/s/<int:pk>/events/", live.session_events, name="session_events"),
    # what a live board fetches on a change: its regions, the same bytes for every phone on the link
    path("g/<str:token>/s/<int:pk>/live/", sessions.session_live, name="session_live"),
    path("g/<str:token>/s/<int:pk>/settle/", sessions.session_settle, name="session_settle"),
    path("g/<str:token>/s/<int:pk>/stakes/", sessions.session_stakes, name="session_stakes"),
    path("g/<str:token>/s/<int:pk>/history/", sessions.session_history, name="session_history"),
    path("g/<str:token>/s/<int:pk>/rules/", sessions.session_rules, name="session_rules"),
    # the redeal calculator for this session's system, with the way back to its board
    path("g/<str:token>/s/<int:pk>/redeal/", sessions.session_redeal, name="session_redeal"),
    path("g/<str:token>/s/<int:pk>/delete/", sessions.session_delete, name="session_delete"),
    path("g/<str:token>/s/<int:pk>/restore/", sessions.session_restore, name="session_restore"),
    path("g/<str:token>/s/<int:pk>/hands/new/", hands.hand_new, name="hand_new"),
    path("g/<str:token>/s/<int:pk>/hands/preview/", hands.hand_preview, name="hand_preview"),
    # what an open hand form shows of the table, asked for again when another phone changes it
    path("g/<str:token>/s/<int:pk>/hands/next/", next_hand.hand_next, name="hand_next"),
    path("g/<str:token>/s/<int:pk>/events/new/", hands.event_new, name="event_new"),
    # the hand in progress: the contract when the auction ends, completed or thrown in later
    path("g/<str:token>/s/<int:pk>/playing/new/", in_progress.contract_new, name="contract_new"),
    path("g/<str:token>/s/<int:pk>/playing/preview/", in_progress.contract_preview, name="contract_preview"),
    path("g/<str:token>/s/<int:pk>/playing/<int:contract_id>/complete/", in_progress.contract_complete,
         name="contract_complete"),
    path("g/<str:token>/s/<int:pk>/playing/<int:contract_id>/abandon/", in_progress.contract_abandon,
         name="contract_abandon"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/", hands.hand_detail, name="hand_detail"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/edit/", hands.hand_edit, name="hand_edit"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/delete/", hands.hand_delete, name="hand_delete"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/restore/", hands.hand_restore, name="hand_restore"),
    path("g/<str:token>/s/<int:pk>/h/<int:number>/revert/<int:revision>/", hands.hand_revert, name="hand_revert"),
]
