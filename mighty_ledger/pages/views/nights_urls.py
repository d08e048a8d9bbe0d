"""A club night's pages: the start form, the night's page and its forms, the big screen and its
body, one settlement for the night, and where everyone sits in the latest round."""

from django.urls import path

from mighty_ledger.pages.views import night_screen, nights

NIGHT = "g/<str:token>/nights/<int:night_id>"

urlpatterns = [
    path("g/<str:token>/nights/new/", nights.night_new, name="night_new"),
    path(f"{NIGHT}/", nights.night_page, name="night_page"),
    path(f"{NIGHT}/rounds/", nights.night_draw, name="night_draw"),
    path(f"{NIGHT}/swap/", nights.night_swap, name="night_swap"),
    path(f"{NIGHT}/players/", nights.night_player_add, name="night_player_add"),
    path(f"{NIGHT}/players/remove/", nights.night_player_remove, name="night_player_remove"),
    path(f"{NIGHT}/settle/", nights.night_settle, name="night_settle"),
    # a transfer paid for the whole night, marked and undone on the night's settlement
    path(f"{NIGHT}/payments/", nights.night_payment_mark, name="night_payment_mark"),
    path(f"{NIGHT}/payments/<int:payment_id>/undo/", nights.night_payment_undo_view,
         name="night_payment_undo"),
    path(f"{NIGHT}/places/", nights.night_places, name="night_places"),
    # for a TV or projector: no controls, follows the group live; its body, asked for on each change
    path(f"{NIGHT}/screen/", night_screen.night_screen, name="night_screen"),
    path(f"{NIGHT}/screen/live/", night_screen.night_screen_live, name="night_screen_live"),
]
