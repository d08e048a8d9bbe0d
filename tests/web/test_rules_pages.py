from django.urls import reverse

from mighty_ledger.pages.preset_names import PRESET_NAMES
from scoring.presets import preset_slugs
from tests.offenders import offenders

# pagat: ♠A counts 0 and 2–9 nothing, so this hand's value is 0, at or under ½
WEAK_HAND = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "2H"]
# five point cards: a value of 5
STRONG_HAND = ["KS", "QS", "JS", "10S", "KH", "2S", "3S", "4S", "5S", "6S"]

HTMX = {"HTTP_HX_REQUEST": "true"}


def redeal_url(system, hand):
    query = "&".join(f"card={card}" for card in hand)
    return f"{reverse('redeal')}?system={system}&{query}"


def test_the_systems_list_links_every_preset(client):
    response = client.get(reverse("systems_list"))

    assert response.status_code == 200
    for slug in preset_slugs():
        assert reverse("system_detail", args=[slug]) in response.text


def test_every_system_page_renders_its_words(client):
    def check(slug):
        response = client.get(reverse("system_detail", args=[slug]))

        assert response.status_code == 200
        assert "The minimum bid is" in response.text

    assert offenders(preset_slugs(), check, name=str) == {}


def test_a_system_page_gives_the_exact_deal_miss_odds(client):
    response = client.get(reverse("system_detail", args=["pagat-standard"]))

    assert "18990476/443161355" in response.text


def test_an_unknown_system_is_not_found(client):
    assert client.get(reverse("system_detail", args=["no-such-game"])).status_code == 404


def test_every_preset_has_a_translatable_name():
    assert set(PRESET_NAMES) == set(preset_slugs())


def test_the_comparison_shows_the_base_formulas_side_by_side(client):
    response = client.get(reverse("systems_compare"), {"a": "pagat-standard", "b": "hard-score"})

    assert response.status_code == 200
    assert "<html" in response.text
    assert "2 × (B − 13) + (P − B)" in response.text
    assert "B − 12, the bid over 12" in response.text


def test_the_comparison_under_htmx_is_only_the_partial(client):
    response = client.get(reverse("systems_compare"), {"a": "pagat-standard", "b": "korean-standard"}, **HTMX)

    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'data-option="min_bid"' in response.text


def test_the_redeal_page_renders_a_card_grid_of_the_systems_deck(client):
    response = client.get(reverse("redeal"), {"system": "pagat-3p"})

    assert response.status_code == 200
    assert response.text.count('name="card"') == 33
    assert "Your hand: 10 cards" in response.text


def test_the_redeal_page_judges_a_weak_hand_without_javascript(client):
    response = client.get(redeal_url("pagat-standard", WEAK_HAND))

    assert response.status_code == 200
    assert "Deal miss: this hand may demand a redeal." in response.text
    assert response.text.count("checked") == len(WEAK_HAND)


def test_the_redeal_page_refuses_a_strong_hand(client):
    response = client.get(redeal_url("pagat-standard", STRONG_HAND))

    assert "No deal miss: this hand must be played." in response.text
    assert "Does not qualify" in response.text


def test_an_incomplete_hand_asks_for_the_rest(client):
    response = client.get(redeal_url("pagat-standard", WEAK_HAND[:3]))

    assert "3 of 10 cards chosen." in response.text


def test_htmx_on_a_card_gets_only_the_verdict(client):
    response = client.get(redeal_url("pagat-standard", WEAK_HAND), HTTP_HX_TARGET="redeal-verdict", **HTMX)

    assert "<html" not in response.text
    assert 'name="card"' not in response.text
    assert "Qualifies" in response.text


def test_htmx_on_the_system_gets_the_calculator_for_its_deck(client):
    response = client.get(redeal_url("chicago-6p", []), HTTP_HX_TARGET="redeal-calculator", **HTMX)

    assert "<html" not in response.text
    assert response.text.count('name="card"') == 106


def test_the_rules_pages_speak_korean(client):
    response = client.get(reverse("system_detail", args=["korean-standard"]), HTTP_ACCEPT_LANGUAGE="ko")

    assert '<html lang="ko">' in response.text
    assert "최소 공약" in response.text
