"""A cell of a spreadsheet of past hands, read as the table wrote it: dates, whole numbers, trumps,
contracts, partner calls and lists of names, in English or Korean; and the characters no cell
may hold. Pure: text in, values out (scoring/sheets.py reads the rows).
"""

from __future__ import annotations

import contextlib
import datetime
import re
from collections.abc import Sequence

from scoring.cards import JOKER, CardCodeError, mighty, parse_card, parse_trump

# the suits and no trump as Korean tables write them; English words and ♠♥♦♣ are scoring.cards'
KOREAN_TRUMPS = {
    "스페이드": "S", "스페": "S", "스": "S", "하트": "H", "하": "H", "다이아몬드": "D", "다이아": "D",
    "다": "D", "클로버": "C", "클럽": "C", "클": "C", "노기루다": "NT", "노기": "NT", "노트럼프": "NT",
    "노트": "NT", "NT": "NT", "노": "NT",
}  # fmt: skip
NO_FRIEND = {"none", "nofriend", "alone", "solo", "노프렌드", "노프", "프렌드없음", "없음", "혼자", "-", "—", "x"}
FIRST_TRICK = {"firsttrick", "1sttrick", "첫트릭", "초구", "초구프렌드"}
JOKER_WORDS = {"조커", "joker", "jk"}
MIGHTY_WORDS = {"마이티", "mighty"}


def fold(text: str) -> str:
    return re.sub(r"[\s._\-]+", "", str(text)).casefold()


def parse_date(text: str) -> datetime.date | None:
    """2024-03-05, 2024.3.5, 2024/03/05, "2024. 3. 5." (Korean Excel) or 2024년 3월 5일."""
    numbers = re.fullmatch(r"\s*(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})\s*[.일]?\s*", text or "")
    if not numbers:
        return None
    with contextlib.suppress(ValueError):
        return datetime.date(*(int(part) for part in numbers.groups()))
    return None


def parse_int(text: str) -> int | None:
    """A whole number as written: "+5", "-3", "−3" (the typographic minus), "1,200", "5점", "5.0"."""
    cleaned = str(text).strip().replace("−", "-").replace(",", "").removesuffix("점").strip()
    if re.fullmatch(r"[+-]?\d+(\.0+)?", cleaned):
        return int(float(cleaned)) if "." in cleaned else int(cleaned)
    return None


def parse_trump_word(text: str) -> str | None:
    cleaned = str(text).strip()
    return KOREAN_TRUMPS.get(cleaned.upper().replace(" ", "")) or parse_trump(cleaned)


def parse_contract(text: str, trump_text: str | None) -> tuple[int, str] | None:
    """14 S, S14, 스페이드 14, 노기루다 13, 13NT; the trump from its own column when there is one."""
    number = re.search(r"\d+", text or "")
    if not number:
        return None
    rest = (text[: number.start()] + text[number.end():]).strip()
    trump = parse_trump_word(trump_text) if trump_text not in (None, "") else parse_trump_word(rest)
    if trump is None:
        return None
    return int(number.group()), trump


def parse_call(text: str, trump: str, seats: Sequence[str]) -> dict | None:
    """A partner call as written: 노프렌드, 첫트릭, 조커, 마이티, a card (♠A, 스페이드 A, SA) or a player."""
    folded = fold(text)
    if folded in NO_FRIEND:
        return {"type": "none"}
    if folded in FIRST_TRICK:
        return {"type": "first_trick"}
    if folded in JOKER_WORDS:
        return {"type": "card", "cards": [JOKER]}
    if folded in MIGHTY_WORDS:
        return {"type": "card", "cards": [mighty(trump)]}
    if text.strip() in seats:
        return {"type": "player", "seat": text.strip()}
    card = text.strip()
    for word, letter in sorted(KOREAN_TRUMPS.items(), key=lambda item: -len(item[0])):
        if letter != "NT" and card.startswith(word):
            card = letter + card[len(word):].strip()
            break
    try:
        return {"type": "card", "cards": [parse_card(card)]}
    except CardCodeError:
        return None


def split_names(text: str) -> list[str]:
    if fold(text) in NO_FRIEND or not str(text).strip():
        return []
    return [name for name in re.split(r"\s*[,/+·&]\s*|\s+", str(text).strip()) if name]


# what a table writes in a cell never holds a control character (Unicode's Cc: U+0000 to U+001F
# and U+007F to U+009F) but a tab or a line break: NUL above all, which PostgreSQL cannot store
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """The first control character of ``text`` (other than a tab or a line break), or None."""
    found = _CONTROL.search(text)
    return found.group() if found else None
