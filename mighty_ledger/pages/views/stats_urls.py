"""Statistics, player pages, the score-over-time chart, the hands as CSV, and payments."""

from django.urls import path

from mighty_ledger.pages.views import pay, payments, stats

urlpatterns = [
    path("g/<str:token>/stats/", stats.group_stats, name="group_stats"),
    # how a player likes to be paid (edit link only); by id, as a name may hold a slash
    path("g/<str:token>/pay/<int:player_id>/", pay.player_pay, name="player_pay"),
    path("g/<str:token>/players/<path:name>/", stats.player_page, name="player_page"),
    path("g/<str:token>/s/<int:pk>/chart/", stats.session_chart, name="session_chart"),
    path("g/<str:token>/s/<int:pk>/hands.csv", stats.session_hands_csv, name="session_hands_csv"),
    path("g/<str:token>/s/<int:pk>/payments/", payments.session_payments, name="session_payments"),
    path("g/<str:token>/s/<int:pk>/payments/mark/", payments.payment_mark, name="payment_mark"),
    path("g/<str:token>/s/<int:pk>/payments/<int:payment_id>/undo/", payments.payment_undo, name="payment_undo"),
]
