"""The /checker/ page: a GET form whose every step is a link, with mistakes shown beside their fields."""
import html
import re

import pytest

pytestmark = pytest.mark.django_db


def option_links(page):
    return {html.unescape(re.sub(r"<[^>]+>", "", label)): html.unescape(href) for href, label in
            re.findall(r'<a class="ck-option" href="([^"]+)" data-kind="[^"]*">(.*?)</a>', page)}


def test_empty_page_offers_every_runnable_card_for_autocomplete(client, catalogue):
    response = client.get("/checker/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<option value="130 Smirking Ridgeback">' in page
    assert '<option value="Cave card 1">' in page
    assert '<option value="Guild 1 Plains Guild">' in page
    assert 'class="ck-pending"' not in page


def test_running_a_card_shows_the_question_and_links_that_step_forward(client, catalogue):
    page = client.get("/checker/", {"card": "130 Smirking Ridgeback"}).content.decode()
    assert "Use Smirking Ridgeback: Tuck 1 dragon card from the deck under each playful dragon in this cave?" in page
    links = option_links(page)
    assert set(links) == {"Yes", "No"}
    assert "d=yes" in links["Yes"]
    after = client.get("/checker/" + links["Yes"]).content.decode()
    assert "The ability is over." in after
    assert "tucked on Smirking Ridgeback (Crimson Cavern 1) 0 → 1" in after


def test_each_option_shows_what_it_costs_or_gives(client, catalogue):
    page = client.get("/checker/", {
        "card": "Calm Loch Serpent", "at_cave": "golden_grotto", "at_column": "1", "nest_eggs": "0",
        "d0_card": "Green Ghost", "d0_cave": "golden_grotto", "d0_column": "3", "d": "yes",
    }).content.decode()
    assert page.count('<span class="ck-price">gives 1 egg</span>') == len(option_links(page)) >= 2


def test_ability_select_lists_the_cards_abilities(client, catalogue):
    page = client.get("/checker/", {"card": "White-Bellied Grazer", "ability": "2"}).content.decode()
    select = re.search(r'<select name="ability" id="ck-ability">(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="(\d)"( selected)?>([^<]+)</option>', select)
    assert [(v, bool(s)) for v, s, _ in options] == [("0", False), ("1", False), ("2", True)]
    assert options[2][2].startswith("The third time milk is cached here")


def test_situation_fields_reach_the_engine(client, catalogue):
    page = client.get("/checker/", {
        "card": "Calm Loch Serpent", "at_cave": "golden_grotto", "at_column": "1", "nest_eggs": "0",
        "d0_card": "Primordiasaur", "d0_cave": "golden_grotto", "d0_column": "2", "d0_eggs": "3",
        "d1_card": "Green Ghost", "d1_cave": "golden_grotto", "d1_column": "3", "d": "yes",
    }).content.decode()
    assert set(option_links(page)) == {"Lay on Golden Grotto space 1 (Calm Loch Serpent)",
                                      "Lay on Golden Grotto space 3 (Green Ghost)"}
    assert "Primordiasaur's nest is full (3 of 3)" in html.unescape(page)


def test_resolve_with_first_option_runs_to_the_end(client, catalogue):
    page = client.get("/checker/", {"card": "Smirking Ridgeback", "auto": "1"}).content.decode()
    assert "The ability is over." in page
    assert '<strong class="ck-choice">Yes</strong>' in page


def test_wrong_cave_is_marked_beside_the_field(client, catalogue):
    response = client.get("/checker/", {"card": "Smirking Ridgeback", "at_cave": "golden_grotto"})
    assert response.status_code == 400
    page = response.content.decode()
    field = re.search(r'<label class="ck-field has-error"><span>Cave</span>.*?</label>', page, re.S).group(0)
    assert 'name="at_cave"' in field
    assert "does not live in the Golden Grotto" in field


def test_error_in_a_later_dragon_row_is_marked_on_that_row(client, catalogue):
    response = client.get("/checker/", {"card": "Smirking Ridgeback", "d2_card": "Genial Mothdragon",
                                        "d2_cave": "amethyst_abyss", "d2_column": "1"})
    assert response.status_code == 400
    page = response.content.decode()
    row = re.search(r'<div class="ck-row" data-row="2">.*?</div>\s*</div>', page, re.S).group(0)
    assert "has-error" in row and "does not live in the Amethyst Abyss" in row


def test_text_in_a_number_field_is_refused_beside_it(client, catalogue):
    response = client.get("/checker/", {"card": "Smirking Ridgeback", "coins": "lots"})
    assert response.status_code == 400
    page = response.content.decode()
    field = re.search(r'<label class="ck-field has-error"><span>Coins</span>.*?</label>', page, re.S).group(0)
    assert "expected a whole number, not &#x27;lots&#x27;" in field


def test_illegal_decision_in_the_link_shows_the_engines_reason(client, catalogue):
    response = client.get("/checker/", {"card": "Smirking Ridgeback", "d": ["egg_on:0"]})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "decisions[0]: You tried 'Lay on Crimson Cavern space 1'" in page


def test_partial_answer_is_only_the_result(client, catalogue):
    response = client.get("/checker/", {"card": "Smirking Ridgeback", "partial": "1"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="checker-result"')
    assert "<html" not in page and 'class="ck-pending"' in page


def test_a_pick_whose_place_is_a_number_shows_the_engines_reason(client, catalogue):
    response = client.get("/checker/", {"card": "1", "d": ["pick:1:dragon:5"]})
    assert response.status_code == 400
    assert "decisions[0]: You tried 'pick 1 dragon 5'" in html.unescape(response.content.decode())
