"""The ledger's tables: groups, sessions at the table, and the hands they record.

Scoring itself lives in the pure `scoring` package; models only store what was
played and what `scoring` computed from it. Nothing is ever hard-deleted by the
app: rows carry ``deleted_at`` and every change leaves a Revision. A club night is in ``nights``.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from mighty_ledger.models.nights import Night, NightRound, table_title


def new_token() -> str:
    # 32 bytes from the OS: 256 bits, far past the 128 a capability link needs.
    # A link is pasted onto command lines (export_group, restore), where a
    # leading "-" reads as an option, so one in 64 is drawn again.
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


class LiveQuerySet(models.QuerySet):
    def live(self):
        return self.filter(deleted_at__isnull=True)

    def deleted(self):
        return self.filter(deleted_at__isnull=False)


class Group(models.Model):
    """Friends who play together. Reached only through its edit or view link."""

    name = models.CharField(_("name"), max_length=80)
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = LiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("group")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    created_at = models.DateTimeField(default=timezone.now)
    # how the player likes to be paid (reads/pay_links.py checks them and builds the links);
    # "" when not kept. Shown only through the edit link: an account number is nobody's business
    # but the group's
    pay_toss = models.CharField(_("Toss ID"), max_length=30, blank=True)
    pay_kakaopay = models.CharField(_("KakaoPay money link"), max_length=80, blank=True)
    pay_bank = models.CharField(_("bank"), max_length=20, blank=True)
    pay_account = models.CharField(_("account number"), max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["group", "name"], name="player_name_unique_in_group")]

    def __str__(self) -> str:
        return self.name


class SessionQuerySet(LiveQuerySet):
    def newest_first(self):
        return self.order_by("-played_on", "-id")


class Session(models.Model):
    """One evening at the table: the seats, the scoring system (frozen), the stake."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sessions")
    played_on = models.DateField(_("date"), default=timezone.localdate)
    title = models.CharField(_("title"), max_length=80, blank=True)
    # player names, clockwise; names are unique in a group and a seated player cannot be renamed
    seats = models.JSONField()
    preset = models.CharField(_("scoring system"), max_length=40)
    overrides = models.JSONField(default=dict, blank=True)
    # every option of the system as it was when the session started, so later
    # preset edits never change old scores
    system_options = models.JSONField()
    first_dealer = models.CharField(max_length=40)
    stake_per_point = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    currency = models.CharField(max_length=8, blank=True)
    rounding_unit = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    chips_start = models.PositiveIntegerField(null=True, blank=True)
    chips_per_point = models.PositiveIntegerField(null=True, blank=True)
    # derived, kept by the services in the same transaction as the hands they sum
    totals = models.JSONField(default=dict)
    pot = models.IntegerField(default=0)
    hand_count = models.PositiveIntegerField(default=0)
    # bumped by every write to the session's hands: pages cached under it never go stale
    revision = models.PositiveIntegerField(default=0)
    # bumped when hands already recorded are rewritten (an edit, delete or restore replays the
    # hands after it); appending a hand leaves it, so statistics counted so far still stand
    replays = models.PositiveIntegerField(default=0)
    night_round = models.ForeignKey(NightRound, models.CASCADE, null=True, blank=True, related_name="tables")
    night_table = models.PositiveSmallIntegerField(null=True, blank=True)  # a night's table, from 1; else NULL
    created_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = SessionQuerySet.as_manager()

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [models.UniqueConstraint(fields=["night_round", "night_table"], name="table_number_unique_in_round")]

    def __str__(self) -> str:
        return self.shown_title or f"{self.played_on:%Y-%m-%d}"

    @property
    def shown_title(self) -> str:
        """The title a page shows, in the reader's language: a club night's table is named from its round
        and number (select_related("night_round__night") where listed), whatever its stored title's language."""
        if self.night_table is None or self.night_round_id is None:
            return self.title
        drawn = self.night_round
        return table_title(night_title=drawn.night.title, round_number=drawn.number, table=self.night_table)

    def stamp(self, *parts: object) -> str:
        """What a page of the session shows, for its ETag and cache keys: the session (its id and
        creation, so a database started again never reads another's copies) at this revision."""
        return ":".join(str(part) for part in (self.pk, self.created_at.timestamp(), self.revision, *parts))


class HandQuerySet(LiveQuerySet):
    def in_order(self):
        return self.order_by("number")

    def latest_first(self):
        return self.order_by("-number")


class Hand(models.Model):
    """One deal at the table: a scored hand, a deal miss (redeal), an all-pass throw-in, or a hand
    brought in from a paper score sheet (its payments as written, no details)."""

    SCORED, DEAL_MISS, ALL_PASS, SCORE_SHEET = "scored", "deal_miss", "all_pass", "score_sheet"
    KINDS = [(SCORED, _("hand")), (DEAL_MISS, _("deal miss")), (ALL_PASS, _("all passed")),
             (SCORE_SHEET, _("from the score sheet"))]

    # no index of its own: the unique (session, number) index starts with the session and serves
    # every lookup by session, and each hand recorded would otherwise update two indexes for one
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=KINDS, default=SCORED)
    # the HAND_JSON request as entered (for events: dealer, who showed the hand, the fine)
    entry = models.JSONField()
    # the HAND_JSON result the engine computed when the hand was saved
    result = models.JSONField(null=True, blank=True)
    # the result's explanation as sentence templates and values (scoring.words.as_message),
    # so pages show it in the reader's language without scoring the hand again
    explanation = models.JSONField(default=list, blank=True)
    # the sides as the engine saw them: {"declarers": [...], "defenders": [...], "winners": [...]}
    sides = models.JSONField(default=dict, blank=True)
    payments = models.JSONField(default=dict)
    running_totals = models.JSONField(default=dict)
    pot_after = models.IntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = HandQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="hand_number_unique_in_session"),
        ]

    def __str__(self) -> str:
        return f"#{self.number}"


class Revision(models.Model):
    """Every change a link made, with the state before and after: nothing is silently lost."""

    CREATED, AMENDED, DELETED, RESTORED = "created", "amended", "deleted", "restored"
    ACTIONS = [
        (CREATED, _("created")),
        (AMENDED, _("edited")),
        (DELETED, _("deleted")),
        (RESTORED, _("restored")),
    ]

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="revisions")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="revisions")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, null=True, blank=True, related_name="revisions")
    subject = models.CharField(max_length=12)  # group, player, session or hand
    action = models.CharField(max_length=12, choices=ACTIONS)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # which link made the change: "edit link …abcd" or "api …abcd"
    by = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.subject} {self.action} by {self.by}"


class PaymentQuerySet(models.QuerySet):
    def standing(self):
        """Payments still counted: an undone payment stays in the table, and in the history."""
        return self.filter(undone_at__isnull=True)


class Payment(models.Model):
    """One transfer of a settlement, marked as paid: a session's, or a club night's.

    Payments are money (or points, or chips) changing hands after the game: they
    never enter a session's totals or the statistics. An undo keeps the row
    (``undone_at``) and a revision, like every other change.

    A payment belongs to exactly one of a session (checked against what is owed at that table)
    or a night (Ed pays Cy for the whole night: checked against what is owed across its tables,
    reads.nights.night_payment_room), a check constraint says so. One table with two nullable
    links, rather than a second table of night payments: the group's balance, the key store
    (``RequestKey.payment``), the export and every list of payments read one kind of row, and
    a reader of a session's payments (``session.payments``) meets only that session's.
    """

    POINTS, MONEY, CHIPS = "points", "money", "chips"
    UNITS = [(POINTS, _("points")), (MONEY, _("money")), (CHIPS, _("chips"))]

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="payments")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="payments")
    night = models.ForeignKey(Night, on_delete=models.CASCADE, null=True, blank=True, related_name="payments")
    payer = models.CharField(max_length=40)
    payee = models.CharField(max_length=40)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    # what the amount counts, as the settlement counted it; money carries its currency
    unit = models.CharField(max_length=8, choices=UNITS, default=POINTS)
    currency = models.CharField(max_length=8, blank=True)
    by = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)

    objects = PaymentQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(session__isnull=False, night__isnull=True)
                | models.Q(session__isnull=True, night__isnull=False),
                name="payment_of_a_session_or_a_night",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee} {self.amount}"


class ContractQuerySet(models.QuerySet):
    def open(self):
        return self.filter(status=Contract.OPEN)


class Contract(models.Model):
    """The hand in progress: the contract the auction ended on, recorded before the cards are played.

    Every phone at the table shows it until someone completes it with the
    partners and the points (it then becomes an ordinary Hand) or throws it in.
    A session has at most one open contract: a partial unique index says so, so
    two phones opening one at the same moment cannot both succeed.
    """

    OPEN, COMPLETED, ABANDONED = "open", "completed", "abandoned"
    STATUSES = [(OPEN, _("playing now")), (COMPLETED, _("completed")), (ABANDONED, _("thrown in"))]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="contracts")
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    # the HAND_JSON fields known when the auction ends: dealer, sitting_out, declarer, bid, contract, partner_call
    entry = models.JSONField()
    # what the engine says each side wins or loses at each point count, worked out when the contract was opened
    outlook = models.JSONField(default=dict, blank=True)
    # the hand it became, once completed
    hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = ContractQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session"], condition=models.Q(status="open"), name="one_open_contract_per_session"
            ),
        ]

    def __str__(self) -> str:
        contract = self.entry.get("contract", {})
        return f"{self.entry.get('declarer')} {contract.get('points')} {contract.get('trump')} ({self.status})"


class SeasonQuerySet(models.QuerySet):
    def in_order(self):
        return self.order_by("starts", "id")


class Season(models.Model):
    """A named stretch of the group's record: from its start date to the day before the next
    season's start (the last one goes on until another is named)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts = models.DateField(_("starts"))
    created_at = models.DateTimeField(default=timezone.now)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["starts", "id"]
        constraints = [
            # the next season's start ends the last: two starting the same day would leave one empty
            models.UniqueConstraint(fields=["group", "starts"], name="season_start_unique_in_group"),
        ]

    def __str__(self) -> str:
        return self.name


def new_import_key() -> str:
    return secrets.token_hex(8)


class SheetImport(models.Model):
    """A spreadsheet of past hands brought into the group, kept so that the same file brought in
    again adds nothing and the whole import can be undone."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sheet_imports")
    # what the API and the pages call it: not the row's id, so imports cannot be counted or guessed
    key = models.CharField(max_length=32, unique=True, default=new_import_key)
    # SHA-256 of the file's bytes: the same file again is this import
    file_hash = models.CharField(max_length=64)
    file_name = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=40)
    # the sessions and players it made, by id: the undo removes exactly these
    session_ids = models.JSONField(default=list)
    player_ids = models.JSONField(default=list)
    hand_count = models.PositiveIntegerField(default=0)
    by = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # one standing import per file and group; an undone one may be brought in again
            models.UniqueConstraint(fields=["group", "file_hash"], condition=models.Q(undone_at__isnull=True),
                                    name="sheet_import_file_once_in_group"),
        ]

    def __str__(self) -> str:
        return f"{self.file_name or self.file_hash[:8]} ({self.hand_count})"


class RequestKey(models.Model):
    """A one-time key a form or an API client sent with a write: what it made, for as long as that
    lasts, and for a day the first answer to it. The one store of such keys (http/request_keys.py)."""

    # what the key is unique in: what it makes ("session:8:hands"), whichever face sent it, or for
    # other writes the face's ("api:group:2:players", or one form's URL, hashed: it holds a link)
    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=200)
    # what the key made, and the request as its service read it (a hand as it would be stored), so
    # a repeat gets this one and another request with the key is refused; it goes with what it made
    hand = models.ForeignKey(Hand, models.CASCADE, null=True, blank=True, related_name="+")
    contract = models.ForeignKey(Contract, models.CASCADE, null=True, blank=True, related_name="+")
    payment = models.ForeignKey(Payment, models.CASCADE, null=True, blank=True, related_name="+")
    made_fingerprint = models.CharField(max_length=64, blank=True)
    # the first answer, written in the transaction of what it made, and the request it answered as
    # the face that answered read it (the API: its body); forgotten after a day (request_keys.KEPT_FOR)
    fingerprint = models.CharField(max_length=64, blank=True)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    location = models.CharField(max_length=500, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="request_key_unique_in_scope")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"
