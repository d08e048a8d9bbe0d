"""A club night's tables: the night, and its rounds. A round's tables are ordinary sessions
(``Session.night_round`` and ``Session.night_table``), so every phone at a table works as it
does at any session; the night only says who was drawn where, and how its standings count.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Night(models.Model):
    """One evening of a group at several tables: the players present, the system and its rule
    changes, the stake, how a round ends and how the standings count.

    A round ends after ``hands_per_round`` hands at each table (at a table of another size than
    the system's, as many as give each seat the same number of hands: reads.nights.table_target),
    or after ``minutes_per_round`` with the hand in progress finished: exactly one of them is set.
    """

    POINTS, PER_HAND, PLACEMENT = "points", "per_hand", "placement"
    STANDINGS = [(POINTS, _("points")), (PER_HAND, _("points per hand")), (PLACEMENT, _("placement points"))]
    MIX, BY_STANDINGS = "mix", "standings"
    MIXINGS = [(MIX, _("meet new people")), (BY_STANDINGS, _("by standings"))]

    group = models.ForeignKey("mighty_ledger.Group", on_delete=models.CASCADE, related_name="nights")
    played_on = models.DateField(_("date"), default=timezone.localdate)
    title = models.CharField(_("title"), max_length=80, blank=True)
    # the names present now, in the order they came: the next round draws from these
    players = models.JSONField(default=list)
    preset = models.CharField(_("scoring system"), max_length=40)
    overrides = models.JSONField(default=dict, blank=True)
    # as a session's: each table's session takes them when the round is drawn
    stake_per_point = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    currency = models.CharField(max_length=8, blank=True)
    rounding_unit = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    chips_start = models.PositiveIntegerField(null=True, blank=True)
    chips_per_point = models.PositiveIntegerField(null=True, blank=True)
    hands_per_round = models.PositiveIntegerField(null=True, blank=True)
    minutes_per_round = models.PositiveIntegerField(null=True, blank=True)
    standings = models.CharField(max_length=10, choices=STANDINGS, default=POINTS)
    mixing = models.CharField(max_length=10, choices=MIXINGS, default=MIX)
    # shown on the night's page: with the players and the rounds before, it gives the same draw anywhere
    seed = models.BigIntegerField()
    # bumped by every change to the night itself (a round drawn, a player come or gone, a swap)
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(hands_per_round__isnull=False, minutes_per_round__isnull=True)
                | models.Q(hands_per_round__isnull=True, minutes_per_round__isnull=False),
                name="night_round_ends_one_way",
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"{self.played_on:%Y-%m-%d}"


class NightRound(models.Model):
    """One round of a night: its tables are the sessions that link to it (seats clockwise, as any
    session's), and who sat it out."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    sitting_out = models.JSONField(default=list)
    drawn_at = models.DateTimeField(default=timezone.now)
    # a timed round: when its time is up (each table then finishes the hand in progress)
    ends_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="round_number_unique_in_night")]

    def __str__(self) -> str:
        return f"{self.night} #{self.number}"


def table_title(*, night_title: str, round_number: int, table: int) -> str:
    """A club night's table as a page names it, in the reader's language, from its round and
    number: the title stored when the round was drawn is in the language of whoever drew it."""
    if night_title:
        return gettext("{night}, round {round}, table {table}").format(
            night=night_title, round=round_number, table=table)
    return gettext("Round {round}, table {table}").format(round=round_number, table=table)
