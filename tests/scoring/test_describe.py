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
from tests.offenders import offenders


def test_every_preset_describes_and_states_its_minimum_bid():
    def check(preset):
        system = preset.system()

        sections = describe(system)

        words = "\n".join(line for section in sections for line in section.lines)
        assert f"The minimum bid is {system.min_bid}." in words
        assert all(section.lines for section in sections)

    assert offenders(all_presets(), check, name=lambda preset: preset.slug) == {}


def test_the_base_formula_uses_the_systems_own_minimum():
    def check(preset):
        system = preset.system()
        base = next(s for s in describe(system) if s.title == "Base score")

        assert any(made_formula(system) in line for line in base.lines)

    assert offenders(all_presets(), check, name=lambda preset: preset.slug) == {}


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


def _section(slug: str, title: str) -> list[str]:
    system = get_preset(slug).system()
    return [str(line) for line in next(s for s in describe(system) if s.title == title).lines]


@pytest.mark.parametrize(
    ("slug", "says", "never_says"),
    [
        # pagat (seed 000): "unless the bid was 19 in which case it is sufficient to increase it to
        # 20" and "unless the bid was already 20 in which case it can be changed to '20 with no-trump'"
        pytest.param(
            "pagat-standard",
            ["A 19 contract may change suit by going to 20.", "A 20 contract in a suit may become 20 no trump."],
            [],
            id="000-pagat-19-and-20",
        ),
        # 003 §6.1 표준: +2 for any change, with no exception at 19 or 20
        pytest.param(
            "korean-standard",
            [
                "A 19 contract cannot change suit, since it would need more than 20.",
                "A 20 contract in a suit cannot become no trump.",
            ],
            [],
            id="003-standard-no-exception",
        ),
        # seed 001: two decks go to 40, and a change of suit costs 3
        pytest.param(
            "chicago-6p",
            [
                "A contract of 38 to 39 cannot change suit, since it would need more than 40.",
                "A 40 contract in a suit cannot become no trump.",
            ],
            ["A 19 contract cannot change suit, since it would need more than 20."],
            id="001-two-decks-go-to-40",
        ),
        # 003 §6.3 신촌 "목표 점수를 20보다 높게 부를 수 있다": a 19 in spades becomes 21 in hearts
        pytest.param("korean-sinchon", [], ["A 19 contract", "A 20 contract"], id="003-sinchon-bids-above-20"),
        pytest.param("korean-daegu", [], ["A 19 contract", "A 20 contract"], id="003-daegu-bids-above-20"),
        # 003 §6.7 경기 "기루다를 바꿀 때 목표점수를 안 높여도 된다": 19 and 20 change trump as they are
        pytest.param("korean-gyeonggi", [], ["A 19 contract", "A 20 contract"], id="003-gyeonggi-no-raise"),
        # 003 §3.5.1 변형 2마 counts tricks, at most 10
        pytest.param(
            "korean-2-variant",
            [
                "A 9 contract cannot change suit, since it would need more than 10.",
                "A 10 contract in a suit cannot become no trump.",
            ],
            ["A 19 contract", "A 20 contract"],
            id="003-variant-2-counts-ten-tricks",
        ),
    ],
)
def test_the_trump_change_caps_are_said_with_the_systems_own_maximum(slug, says, never_says):
    lines = _section(slug, "Changing trump")
    for line in says:
        assert line in lines
    assert not any(part in line for part in never_says for line in lines)


@pytest.mark.parametrize(
    ("slug", "options", "line"),
    [
        # 003 §6.2 민사 "주공이 20을 공약하면 딜 미스 없이 바로 진행해야 한다"
        pytest.param("korean-minsa", {}, "A bid of 20 forbids a deal miss.", id="003-minsa-20"),
        # pagat's "bid of 20" is the deck's maximum: 40 with two decks (seed 001)
        pytest.param("chicago-7p", {}, "A bid of 40 does not change the deal miss.", id="001-two-decks-40"),
        pytest.param(
            "chicago-8p", {"deal_miss": {"bid_20_cancels": True, "bid_20_after_demand": True}},
            "Another player may stop a deal miss by bidding 40 after it is demanded.", id="001-two-decks-stop-at-40",
        ),
    ],
)
def test_a_bid_of_the_maximum_in_the_deal_miss_rules_is_the_systems_maximum(slug, options, line):
    system = get_preset(slug).system(options)
    lines = [str(each) for section in describe(system) if section.title == "Deal miss (딜 미스)" for each in section.lines]
    assert line in lines


def test_003_variant_2_counts_tricks_in_its_run_back_run_and_discards():
    # 003 §3.5.1 변형 2마 "공약은 먹은 턴 수를 대상으로 한다": the contract, the run and the back run
    # count tricks, and a buried card wins no trick
    system = get_preset("korean-2-variant").system()
    words = [str(line) for section in describe(system) for line in section.lines]
    assert "Run (런, the declarer's team takes every trick): ×2 when the contract is made." in words
    assert "A back run (백런) is when the defenders take 6 or more tricks." in words
    assert "Discarded cards win no trick, so they count for neither side." in words
    assert not any("point card" in line for line in words if "run" in line.lower() or "discard" in line.lower())


def test_003_variant_2_explains_a_run_as_every_trick():
    from scoring.interface import score_request

    answer = score_request({
        "system": "korean-2-variant", "seats": ["Ann", "Bo"], "declarer": "Ann", "contract": {"points": 8, "trump": "S"},
        "partner_call": {"type": "none"}, "partners": [], "points": 10,
    })
    assert answer["doubles"] == ["run"]
    assert any(line.startswith("Run (the declarer's team took every trick)") for line in answer["explanation"])
    assert answer["explanation"][0] == "Contract 8 in spades; the declarer's team took 10 of 10 tricks: made."
