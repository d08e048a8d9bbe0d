import pytest

from scoring.describe import (
    OPTION_LABELS,
    OPTION_WORDS,
    compare,
    describe,
    describe_option,
    made_formula,
    option_words,
)
from scoring.presets import all_presets, get_preset
from scoring.systems import System, option_paths, system_as_options, system_diff

PRESETS = [pytest.param(preset, id=preset.slug) for preset in all_presets()]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_describes_and_states_its_minimum_bid(preset):
    system = preset.system()

    sections = describe(system)

    words = "\n".join(line for section in sections for line in section.lines)
    assert f"The minimum bid is {system.min_bid}." in words
    assert all(section.lines for section in sections)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_base_formula_uses_the_systems_own_minimum(preset):
    system = preset.system()
    base = next(s for s in describe(system) if s.title == "Base score")

    assert any(made_formula(system) in line for line in base.lines)


def test_every_option_has_a_label_and_words():
    paths = option_paths(system_as_options(System()))

    assert set(paths) == set(OPTION_LABELS)
    assert set(OPTION_WORDS) | {p for p in paths if p.startswith("doubles.")} == set(paths)


@pytest.mark.parametrize(
    ("left", "right"),
    [("pagat-standard", "hard-score"), ("pagat-standard", "korean-sinchon"), ("chicago-5p", "pagat-3p")],
)
def test_a_comparison_lists_exactly_the_differing_options(left, right):
    a, b = get_preset(left).system(), get_preset(right).system()

    differences = compare(a, b)

    assert [d.path for d in differences] == [path for path, _, _ in system_diff(a, b)]
    assert all(d.left_words != d.right_words for d in differences)


def test_pagat_standard_and_hard_score_differ_in_the_base_formula():
    differences = {
        d.path: d for d in compare(get_preset("pagat-standard").system(), get_preset("hard-score").system())
    }

    assert "2 × (B − 13) + (P − B)" in differences["base"].left_words
    assert "B − 12" in differences["base"].right_words


def test_a_preset_compared_with_itself_has_no_differences():
    system = get_preset("korean-standard").system()

    assert compare(system, system) == []


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("min_bid", 14, "The minimum bid is 14."),
        ("doubles.no_trump", "both", "No trump (노기루다): ×2 whether made or set."),
        ("trump_change.suit", 0, "Changing to another suit, or from no trump to a suit, needs no raise."),
        ("forbidden_calls", ["mighty", "joker"], "These may not be called: the Mighty (마이티), the Joker (조커)."),
        ("deal_miss.threshold", "1/2", "A counted hand qualifies at ½ or less."),
    ],
)
def test_one_sentence_per_option_value(path, value, expected):
    assert describe_option(path, value) == expected


def test_words_translate_through_the_given_catalog_nested_parts_too():
    catalog = {
        "{double}: ×2 when the contract is made.": "{double}: 성공 시 ×2",
        "Back run (백런)": "백런",
    }

    words = option_words("doubles.back_run", "made")

    assert words.translated(lambda text: catalog.get(text, text)) == "백런: 성공 시 ×2"
