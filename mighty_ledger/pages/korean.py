"""Korean particles after a name: 을/를, 이/가, 은/는, 과/와 and (으)로 by the word's last sound.

Messages are written once with both forms, as Korean software long has ("{name}은(는)"),
and ``with_particles`` picks the right one for the word in front, so a page never
shows "을(를)". A Hangul syllable says itself whether it ends in a consonant (its
batchim); digits are read as Sino-Korean numbers (일, 이, 삼…); a Latin name is
read as Koreans say it, which ends in a consonant after l, m, n, ng, k, p or t
(앤, 샘, 폴, 잭, 팻) and in a vowel otherwise (보, 에이미, 맥스).
"""

from __future__ import annotations

import re

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
RIEUL = 8  # the batchim ㄹ, after which (으)로 is 로
# Sino-Korean readings: 영 일 이 삼 사 오 육 칠 팔 구
DIGIT_ENDINGS = {"0": "ng", "1": "l", "2": "", "3": "m", "4": "", "5": "", "6": "k", "7": "l", "8": "l", "9": ""}
LATIN_ENDINGS = ("ng", "ck", "l", "m", "n", "k", "p", "t")

# "with a final consonant" form, then "without", as the pair is written in a message
PAIRS = {
    "은(는)": ("은", "는"), "는(은)": ("은", "는"),
    "이(가)": ("이", "가"), "가(이)": ("이", "가"),
    "을(를)": ("을", "를"), "를(을)": ("을", "를"),
    "과(와)": ("과", "와"), "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"), "(이)나": ("이나", "나"),
}  # fmt: skip
PAIR = re.compile("|".join(re.escape(pair) for pair in PAIRS))
# quotes and brackets closing a name do not change how it ends: '{text}'은(는)
CLOSING = "'\"’”)]}»›」』"


def final_sound(word: str) -> str | None:
    """How ``word`` ends when read in Korean: "" for a vowel, "l" for ㄹ, another consonant as "c";
    None when nothing in it can be read (punctuation only)."""
    word = word.rstrip(CLOSING).rstrip()
    if not word:
        return None
    last = word[-1]
    if HANGUL_FIRST <= ord(last) <= HANGUL_LAST:
        batchim = (ord(last) - HANGUL_FIRST) % 28
        return "" if batchim == 0 else ("l" if batchim == RIEUL else "c")
    if last in DIGIT_ENDINGS:
        ending = DIGIT_ENDINGS[last]
        return ending if ending in ("", "l") else "c"
    lower = word.lower()
    if lower[-1].isascii() and lower[-1].isalpha():
        for ending in LATIN_ENDINGS:
            if lower.endswith(ending):
                return "l" if ending == "l" else "c"
        return ""
    return None


def particle(word: str, pair: str) -> str:
    """The particle of ``pair`` ("을(를)", "이(가)", …) that follows ``word``."""
    with_final, without_final = PAIRS[pair]
    sound = final_sound(word)
    if sound is None:
        return pair
    if pair == "(으)로":
        return without_final if sound in ("", "l") else with_final
    return without_final if sound == "" else with_final


def with_particles(text: str) -> str:
    """``text`` with each two-form particle resolved by the word in front of it."""

    def resolve(match: re.Match) -> str:
        before = text[: match.start()].split()[-1:] or [""]
        return particle(before[0], match.group())

    return PAIR.sub(resolve, str(text))
