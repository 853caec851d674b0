"""The calculator's pages: the form (quick and card by card), errors beside their fields, permalinks, sign-up and
the history page with its charts."""
import re

import pytest
from django.contrib.auth.models import User

from game.models import ScoreSheet

pytestmark = pytest.mark.django_db


def totals(html):
    return {name: int(total) for name, total in re.findall(r'class="calc-total" data-name="([^"]+)">(-?\d+)<', html)}


def field_errors(html, name):
    """Error messages printed inside the label that holds the input `name`."""
    match = re.search(r'<label class="calc-field has-error">(?:(?!</label>).)*?name="' + re.escape(name) +
                      r'"(?:(?!</label>).)*</label>', html, re.S)
    return re.findall(r'class="calc-error" role="alert">([^<]+)<', match.group(0)) if match else []


def test_the_form_offers_every_dragon_for_autocomplete(client, catalogue):
    response = client.get("/calculator/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<option value="119 Chameleon Coatl">' in html
    assert '<option value="119 Chameleon Coatl (updated)">' in html
    assert re.search(r'<option value="12" label="12: [A-Z][^"]+">', html)  # cave cards by number, with their text
    assert html.count('list="dragon-list"') == 5 * 12  # five players, twelve spaces each
    assert 'name="viewport"' in html


def test_quick_form_scores_and_shows_the_breakdown_and_chart(client, catalogue):
    response = client.post("/calculator/", {
        "mode": "quick",
        "players[0].name": "Ann", "players[0].dragon_vp": "30", "players[0].coins": "3", "players[0].items": "9",
        "players[0].guild_markers": "6, 1", "players[0].visible_dragons": "9",
        "players[0].objective_places[0]": "1", "players[0].objective_places[3]": "2",
        "players[1].name": "Ben", "players[1].dragon_vp": "33", "players[1].fledglings": "2",
        "players[1].visible_dragons": "10",
    })
    assert response.status_code == 200
    html = response.content.decode()
    # Ann: 30 printed, 3 coins, 9 items = 2, guild 6 + 1, objectives 1st in round 1 (4) and 2nd in round 4 (4)
    assert totals(html) == {"Ann": 30 + 3 + 2 + 7 + 4 + 4, "Ben": 33 + 4}
    assert "Ann wins" in html
    assert "<svg" in html and "<rect" in html
    assert ScoreSheet.objects.count() == 0


def test_a_mistake_is_shown_beside_its_field_and_nothing_is_saved(client, catalogue):
    response = client.post("/calculator/", {
        "mode": "quick", "save": "1",
        "players[0].name": "Ann", "players[0].eggs": "-2",
        "players[1].name": "Ben", "players[1].guild_markers": "6 3 1 1 1",
    })
    assert response.status_code == 400
    html = response.content.decode()
    assert field_errors(html, "players[0].eggs") == ["cannot be negative"]
    assert any("4 guild markers" in e for e in field_errors(html, "players[1].guild_markers"))
    assert 'value="-2"' in html  # what was typed is kept
    assert ScoreSheet.objects.count() == 0


def test_card_form_reads_the_mat_grid_and_marks_a_dragon_in_the_wrong_cave(client, catalogue):
    post = {
        "mode": "card",
        "players[0].name": "Ann",
        "players[0].mat.crimson_cavern[1].dragon": "42 Great Golden Lung Dragon",
        "players[0].mat.golden_grotto[1].dragon": "47",
        "players[0].mat.golden_grotto[1].eggs": "5",
    }
    html = client.post("/calculator/", post).content.decode()
    assert any("lives in the Golden Grotto" in e
               for e in field_errors(html, "players[0].mat.crimson_cavern[1].dragon"))
    assert any("at most 2 eggs" in e for e in field_errors(html, "players[0].mat.golden_grotto[1].eggs"))


def test_card_form_scores_a_mat_through_the_engine(client, catalogue):
    response = client.post("/calculator/", {
        "mode": "card", "objectives[3]": "8a",
        "players[0].name": "Ann",
        "players[0].mat.golden_grotto[1].dragon": "42 Great Golden Lung Dragon",
        "players[0].mat.golden_grotto[1].eggs": "2",
        "players[0].mat.golden_grotto[2].dragon": "47 Owlatic Amphiptere",
        "players[0].mat.golden_grotto[2].cave_card": "14",
        "players[0].card.coins": "2",
        "players[1].name": "Ben",
        "players[1].mat.crimson_cavern[1].dragon": "74",
    })
    assert response.status_code == 200
    html = response.content.decode()
    # Ann: 2 + 5 printed, 3 VP for the other dragon in the Grotto, 2 eggs, 2 coins, round 4 objective
    # (medium dragons: Ann 1, Ben 1 -> both 1st, 7 VP).
    assert totals(html) == {"Ann": 2 + 5 + 3 + 2 + 2 + 7, "Ben": 6 + 7}


def test_saving_redirects_to_a_permalink_anyone_can_open(client, catalogue):
    response = client.post("/calculator/", {"mode": "quick", "save": "1", "title": "Sunday",
                                            "players[0].name": "Ann", "players[0].dragon_vp": "12"})
    sheet = ScoreSheet.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/calculator/s/{sheet.code}/"
    client.logout()
    page = client.get(response["Location"]).content.decode()
    assert "Sunday" in page and totals(page) == {"Ann": 12} and "<svg" in page


def test_sign_up_signs_in_and_saved_games_fill_the_history(client, catalogue):
    response = client.post("/accounts/signup/", {"username": "ann", "password1": "wyrm-span-2024!",
                                                 "password2": "wyrm-span-2024!"})
    assert response.status_code == 302
    assert User.objects.filter(username="ann").exists()
    for vp in (30, 10):
        client.post("/calculator/", {"mode": "quick", "save": "1", "me": "0",
                                     "players[0].name": "Ann", "players[0].dragon_vp": str(vp),
                                     "players[1].name": "Ben", "players[1].dragon_vp": "20"})
    page = client.get("/calculator/history/").content.decode()
    assert re.search(r'id="stat-games">2<', page) and re.search(r'id="stat-wins">1<', page)
    assert re.search(r'id="stat-average">20.0<', page)
    assert page.count("<svg") == 2  # averages by category, totals game after game
    assert ScoreSheet.objects.filter(owner__username="ann").count() == 2


def test_sign_up_refuses_mismatched_passwords(client, catalogue):
    response = client.post("/accounts/signup/", {"username": "ann", "password1": "wyrm-span-2024!",
                                                 "password2": "other-one-2024!"})
    assert response.status_code == 400
    assert not User.objects.exists()


def test_history_page_asks_to_sign_in(client, catalogue):
    response = client.get("/calculator/history/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.get("/accounts/login/").status_code == 200


ROUND_TRIPS = {
    "quick, two players": {"mode": "quick", "title": "Rematch", "players": [
        {"name": "Ann", "guild_markers": [6, 1], "dragon_vp": 31, "end_game_vp": -2, "eggs": 8, "cached": 5,
         "tucked": 3, "objective_places": [1, 0, 2, 3], "coins": 2, "items": 7, "fledglings": 1,
         "visible_dragons": 10},
        {"name": "Ben", "dragon_vp": 28, "visible_dragons": 11}]},
    "quick, solo with the Automa": {"mode": "quick", "players": [{"name": "Me", "dragon_vp": 40}],
                                    "automa": {"dragon_vp": 30, "cache_tokens": 5, "guild_markers": [3]}},
    "card, Academy, two players": {"mode": "card", "academy": True, "guild_tile": 4, "objectives": [
        {"tile": 7, "side": "b"}, None, {"tile": 3, "side": "a"}, {"tile": 10, "side": "b"}], "players": [
        {"name": "Ann", "dragons": [{"card": 86, "cave": "golden_grotto", "choice": 2, "tucked": 2},
                                    {"card": 74, "cave": "crimson_cavern", "eggs": 1},
                                    {"card": 211, "cave": "crimson_cavern", "tokens": 1, "eggs": 2}],
         "cave_cards": [{"card": 50, "cave": "crimson_cavern", "column": 2},
                        {"card": 9, "cave": "amethyst_abyss", "column": 2}],
         "nest_eggs": 2, "coins": 3, "resources": 4, "hand_dragons": 2, "hand_caves": 1, "guild_markers": [6],
         "guild_ability_markers": 1, "guild_other_markers": 1, "guild_advances": 7,
         "objective_counts": [2, None, 0, None]},
        {"name": "Ben", "dragons": [{"card": "119", "cave": "amethyst_abyss", "cached": 3}]}]},
    "card, solo with the Automa": {"mode": "card", "objectives": [{"tile": 1, "side": "a"}],
                                   "players": [{"name": "Me", "dragons": [{"card": 42, "cave": "golden_grotto"}]}],
                                   "automa": {"dragon_vp": 22, "objective_counts": [3, None, None, 1]}},
}


@pytest.mark.parametrize("data", ROUND_TRIPS.values(), ids=ROUND_TRIPS.keys())
def test_a_saved_sheet_comes_back_into_the_form_unchanged(client, catalogue, data):
    from game.calculator import lookups
    from game.calculator.form import read_post, to_post
    from game.calculator.sheet import clean_sheet

    response = client.post("/api/calculator/sheets/", data=data, content_type="application/json")
    assert response.status_code == 201, response.json()
    saved = ScoreSheet.objects.get(code=response.json()["code"])
    cat = lookups.current()
    again, _ = read_post(to_post(saved.data, cat))
    assert clean_sheet(again, cat) == saved.data
    page = client.get(f"/calculator/?from={saved.code}")
    assert page.status_code == 200
    assert f'value="{saved.data["players"][0]["name"]}"' in page.content.decode()
