from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from mighty_ledger.api import (
    base,
    calculators,
    hands,
    in_progress,
    ledger,
    night_results,
    nights,
    pay,
    ratings,
    seasons,
    sheet_imports,
    stats,
)

app_name = "api"

SESSION = "v1/sessions/<int:session_id>"
HAND = f"{SESSION}/hands/<int:number>"
NIGHT = "v1/nights/<int:night_id>"

# included under api/ (mighty_ledger/urls.py)
urlpatterns = [
    # stateless calculators: no link needed
    path("v1/score", calculators.ScoreView.as_view(), name="score"),
    path("v1/check", calculators.CheckView.as_view(), name="check"),
    path("v1/auction/check", calculators.AuctionCheckView.as_view(), name="auction-check"),
    path("v1/redeal", calculators.RedealView.as_view(), name="redeal"),
    path("v1/next", calculators.NextHandView.as_view(), name="next-hand"),
    path("v1/systems", calculators.SystemListView.as_view(), name="systems"),
    path("v1/systems/<str:slug>", calculators.SystemDetailView.as_view(), name="system"),
    # a group's ledger: Authorization: Bearer <edit or view token>
    path("v1/groups", ledger.GroupCreateView.as_view(), name="groups"),
    path("v1/group", ledger.GroupDetailView.as_view(), name="group"),
    path("v1/players", ledger.PlayersView.as_view(), name="players"),
    path("v1/players/<int:player_id>", pay.PlayerDetailView.as_view(), name="player"),
    path("v1/sessions", ledger.SessionsView.as_view(), name="sessions"),
    path(SESSION, ledger.SessionDetailView.as_view(), name="session"),
    path(f"{SESSION}/restore", ledger.SessionRestoreView.as_view(), name="session-restore"),
    path(f"{SESSION}/settlement", ledger.SettlementView.as_view(), name="settlement"),
    path(f"{SESSION}/hands", hands.HandsView.as_view(), name="hands"),
    path(f"{SESSION}/events", hands.EventCreateView.as_view(), name="events"),
    path(HAND, hands.HandDetailView.as_view(), name="hand"),
    path(f"{HAND}/restore", hands.HandRestoreView.as_view(), name="hand-restore"),
    # the hand in progress: its contract when the auction ends, its result after the last trick
    path(f"{SESSION}/contracts", in_progress.ContractsView.as_view(), name="contracts"),
    path(f"{SESSION}/contracts/<int:contract_id>", in_progress.ContractDetailView.as_view(), name="contract"),
    path(f"{SESSION}/contracts/<int:contract_id>/complete", in_progress.ContractCompleteView.as_view(),
         name="contract-complete"),
    path(f"{SESSION}/contracts/<int:contract_id>/abandon", in_progress.ContractAbandonView.as_view(),
         name="contract-abandon"),
    # statistics of the link's group, and the payments marked against a session's settlement
    path("v1/stats", stats.StatsView.as_view(), name="stats"),
    # skill ratings of the link's group, and its seasons
    path("v1/ratings", ratings.RatingsView.as_view(), name="ratings"),
    path("v1/seasons", seasons.SeasonsView.as_view(), name="seasons"),
    path("v1/seasons/<int:season_id>", seasons.SeasonView.as_view(), name="season"),
    path(f"{SESSION}/payments", stats.PaymentsView.as_view(), name="payments"),
    path(f"{SESSION}/payments/<int:payment_id>", stats.PaymentUndoView.as_view(), name="payment"),
    # past hands brought in from a spreadsheet, and taken back whole
    path("v1/imports", sheet_imports.SheetImportsView.as_view(), name="imports"),
    path("v1/imports/<str:import_id>", sheet_imports.SheetImportView.as_view(), name="import"),
    path("v1/revisions", ledger.RevisionListView.as_view(), name="revisions"),
    # a club night: its rounds drawn, each table a session that takes hands as any other
    path("v1/nights", nights.NightsView.as_view(), name="nights"),
    path(NIGHT, nights.NightDetailView.as_view(), name="night"),
    path(f"{NIGHT}/rounds", nights.NightRoundsView.as_view(), name="night-rounds"),
    path(f"{NIGHT}/rounds/<int:number>/swap", nights.NightSwapView.as_view(), name="night-swap"),
    path(f"{NIGHT}/players", nights.NightPlayersView.as_view(), name="night-players"),
    path(f"{NIGHT}/standings", night_results.NightStandingsView.as_view(), name="night-standings"),
    path(f"{NIGHT}/settlement", night_results.NightSettlementView.as_view(), name="night-settlement"),
    path(f"{NIGHT}/payments", nights.NightPaymentsView.as_view(), name="night-payments"),
    path(f"{NIGHT}/payments/<int:payment_id>", nights.NightPaymentUndoView.as_view(), name="night-payment"),
    # the schema and its docs page (Swagger UI from drf-spectacular-sidecar's static files)
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # anything else under api/v1/ is a 404 in the error shape, not Django's HTML page (or, with a
    # slash too many, the endpoint it names)
    re_path(r"^v1/", base.unknown_endpoint, name="unknown"),
]
