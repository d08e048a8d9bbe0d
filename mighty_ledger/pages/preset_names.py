"""Preset names as players say them, in the reader's language: the rules pages, the board and
the new-session menu all name a system the same way."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring.systems import Preset

# the engine keeps its names in English and Korean mixed
PRESET_NAMES = {
    "pagat-standard": _("Pagat standard (5 players)"),
    "pagat-over-ten": _("Pagat: points over ten"),
    "pagat-over-min": _("Pagat: points over the minimum"),
    "pagat-over-min-plus-one": _("Pagat: points over twelve"),
    "pagat-classic": _("Pagat previous version (flat bid)"),
    "pagat-3p": _("Pagat 3 players (Jun Chulmin)"),
    "pagat-4p-jun": _("Pagat 4 players (Jun Chulmin)"),
    "pagat-6p-knockout": _("Pagat 6 players, one knocked out"),
    "pagat-7p-knockout": _("Pagat 7 players, two knocked out"),
    "pagat-6p-rotation": _("Pagat 6 players in rotation"),
    "hard-score": _("Hard score (bid − 12)"),
    "chicago-4p": _("Chicago 4 players"),
    "chicago-5p": _("Chicago 5 players"),
    "chicago-6p": _("Chicago 6 players (two decks)"),
    "chicago-7p": _("Chicago 7 players (two decks)"),
    "chicago-8p": _("Chicago 8 players (two decks)"),
    "korean-standard": _("표준 5마 (Korean standard)"),
    "korean-minsa": _("민사 5마"),
    "korean-sinchon": _("신촌 5마"),
    "korean-daejeon-6": _("대전 6마"),
    "korean-gwanak-6": _("관악 6마"),
    "korean-gwanak-5": _("관악 5마"),
    "korean-gyeonggi": _("경기 5마"),
    "korean-gwangju": _("광주 5마"),
    "korean-daegu": _("대구 5마"),
    "korean-jeju-3": _("제주 3마"),
    "korean-uos": _("서울시립대 5마"),
    "korean-uos-4": _("서울시립대 4마"),
    "korean-4": _("4마"),
    "korean-6-rotation": _("변형 6마 (one sits out)"),
    "korean-7-rotation": _("변형 7마 (two sit out)"),
    "korean-2": _("2마 (two players)"),
    "korean-gyeonggibuk": _("경기북 5마"),
    "korean-gwanak-4": _("관악 4마"),
    "korean-busan-4": _("부산 4마"),
    "korean-honeymoon-4": _("허니문 마이티 (4마)"),
    "korean-network-4": _("마이티 네트워크 4.0 (4 players)"),
    "korean-6": _("6마 (one knocked out)"),
    "korean-7": _("7마 (two knocked out)"),
    "korean-2-variant": _("변형 2마 (tricks)"),
}


def preset_name(preset: Preset) -> str:
    return str(PRESET_NAMES.get(preset.slug, preset.name))
