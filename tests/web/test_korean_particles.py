"""Korean particles after names: the batchim of the last syllable decides, never "을(를)"."""

from __future__ import annotations

import pytest

from mighty_ledger.pages.korean import particle, with_particles
from mighty_ledger.pages.templatetags.ledger import josa


@pytest.mark.parametrize(
    ("name", "pair", "expected"),
    [
        pytest.param("민준", "이(가)", "이", id="final-consonant-i"),
        pytest.param("지호", "이(가)", "가", id="no-final-consonant-ga"),
        pytest.param("민준", "을(를)", "을", id="final-consonant-eul"),
        pytest.param("지호", "을(를)", "를", id="no-final-consonant-reul"),
        pytest.param("민준", "은(는)", "은", id="final-consonant-eun"),
        pytest.param("서연", "은(는)", "은", id="final-consonant-eun-yeon"),
        pytest.param("유나", "은(는)", "는", id="no-final-consonant-neun"),
        pytest.param("하늘", "(으)로", "로", id="rieul-takes-ro"),
        pytest.param("민준", "(으)로", "으로", id="final-consonant-euro"),
        pytest.param("Ann", "이(가)", "이", id="latin-ann-reads-aen"),
        pytest.param("Bo", "이(가)", "가", id="latin-bo-reads-bo"),
        pytest.param("Amy", "을(를)", "를", id="latin-amy-reads-eimi"),
        pytest.param("Sam", "은(는)", "은", id="latin-sam-reads-saem"),
        pytest.param("Paul", "(으)로", "로", id="latin-paul-ends-in-rieul"),
        pytest.param("13", "은(는)", "은", id="digit-3-sam"),
        pytest.param("15", "은(는)", "는", id="digit-5-o"),
        pytest.param("'AS'", "은(는)", "는", id="quotes-are-skipped"),
    ],
)
def test_the_particle_follows_the_last_sound_of_the_name(name, pair, expected):
    assert particle(name, pair) == expected


def test_a_message_written_with_both_forms_reads_as_korean_is_spoken():
    assert with_particles("민준은(는) 이미 이 모임에 있습니다.") == "민준은 이미 이 모임에 있습니다."
    assert with_particles("지호은(는) 이미 이 모임에 있습니다.") == "지호는 이미 이 모임에 있습니다."
    assert with_particles("공약 12은(는) 이 시스템의 최소 13보다 낮습니다.") == "공약 12는 이 시스템의 최소 13보다 낮습니다."
    assert with_particles("Ann이(가) 아니라 Bo의 차례입니다.") == "Ann이 아니라 Bo의 차례입니다."


def test_english_text_is_left_as_it_is():
    assert with_particles("Ann is already in this group (twice).") == "Ann is already in this group (twice)."


def test_the_template_filter_attaches_the_particle_to_a_name():
    assert josa("유나", "을/를") == "유나를"
    assert josa("민준", "을/를") == "민준을"
    assert josa("Ed", "이/가") == "Ed가"
