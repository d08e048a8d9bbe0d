"""A group's players and sessions as the pages and the API pick or list them. What the group page
shows of them (the season's points, the sessions newest first) is ``reads.group_overview``."""

from __future__ import annotations

from django.db.models import QuerySet

from mighty_ledger.models import Group, Player, Session


def players_of(group: Group) -> list[Player]:
    return list(group.players.all())


def player_names(group: Group) -> list[str]:
    return list(group.players.values_list("name", flat=True))


def player_of(group: Group, player_id: int) -> Player | None:
    """The group's player with this id; None when it is nobody's, or another group's."""
    return group.players.filter(pk=player_id).first()


def player_id_named(group: Group, name: str) -> int | None:
    return group.players.filter(name=name).values_list("pk", flat=True).first()


def latest_session(group: Group) -> Session | None:
    """The live session started last: the table usually sits and plays as it did then."""
    return group.sessions.live().order_by("-created_at").first()


def group_sessions(group: Group, *, deleted: bool = False) -> QuerySet[Session]:
    """The group's live sessions (or its deleted ones), newest first, for a page of them."""
    # a club night's table is named from its round and night (Session.shown_title): read with it
    sessions = Session.objects.filter(group=group).select_related("night_round__night")
    return (sessions.deleted() if deleted else sessions.live()).newest_first()
