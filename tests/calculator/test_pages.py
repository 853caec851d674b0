"""The calculator's pages: the form (quick and card by card), errors beside their fields, permalinks, sign-up and
the history page with its charts."""
import html
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.text import slugify

from game.models import ScoreSheet
from tests.races import at_once

pytestmark = pytest.mark.django_db


def totals(html):
    return {name: int(total) for name, total in re.findall(r'class="calc-total" data-name="([^"]+)">(-?\d+)<', html)}


def field_errors(page, name):
    """Error messages printed inside the label, fieldset (or the score pad's cell) that holds the input `name`."""
    match = re.search(r'<(label|td|fieldset)[^>]* class="[^"]*has-error[^"]*">(?:(?!</\1>).)*?name="' + re.escape(name) +
                      r'"(?:(?!</\1>).)*</\1>', page, re.S)
    return [html.unescape(e) for e in re.findall(r'class="calc-error"[^>]*>([^<]+)<', match.group(0))] if match else []


def test_the_form_offers_every_dragon_for_autocomplete(client, catalogue):
    response = client.get("/calculator/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<option value="119 Chameleon Coatl">' in html
    assert '<option value="119 Chameleon Coatl (updated)">' in html
    assert html.count('list="dragon-list"') == 5 * 12  # without the script: five players, four rows in each cave
    assert 'name="viewport"' in html


def test_quick_form_scores_and_shows_the_breakdown_and_chart(client, catalogue):
    response = client.post("/calculator/", {
        "mode": "quick",
        "players[0].name": "Ann", "players[0].dragon_vp": "30", "players[0].coins": "3", "players[0].items": "9",
        "players[0].guild_markers": "6, 1", "players[0].visible_dragons": "9",
        "players[0].objective_places[0]": "1", "players[0].objective_places[3]": "2",
        "players[1].name": "Ben", "players[1].dragon_vp": "33", "players[1].fledglings": "2",
        "players[1].visible_dragons": "10", "players[1].objective_places[3]": "1", "academy": "on",
    })
    assert response.status_code == 200
    html = response.content.decode()
    # Ann: 30 printed, 3 coins, 9 items = 2, guild 6 + 1, objectives 1st in round 1 (4) and 2nd in round 4 (4)
    # Ben: 33 printed, two fledglings 2 each, 1st in round 4 (7)
    assert totals(html) == {"Ann": 30 + 3 + 2 + 7 + 4 + 4, "Ben": 33 + 4 + 7}
    assert "Ann wins" in html
    assert "<svg" in html and "<rect" in html
    assert ScoreSheet.objects.count() == 0


@pytest.mark.parametrize("ravel,guild", [(False, 0), (True, 6)])
def test_the_solo_form_scores_the_automa_by_her_level_and_ravel_mode(client, catalogue, ravel, guild):
    post = {"mode": "quick", "solo": "on", "players[0].name": "Me", "players[0].dragon_vp": "5",
            "automa.level": "3", "automa.dragon_cards": "10", "automa.cave_cards": "3", "automa.guild_steps": "4",
            "automa.guild_markers": "6"}
    if ravel:
        post["automa.ravel"] = "on"
    html = client.post("/calculator/", post).content.decode()
    # 10 dragons at 8 VP (level 3), 3 cave cards at 2, 4 guild steps; her END GAME square only in Ravel Mode
    assert totals(html)["Automa"] == 80 + 6 + 4 + guild
    assert ('name="automa.ravel" id="f-automa-ravel" checked' in html) is ravel


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
    "quick, two players": {"mode": "quick", "title": "Rematch", "academy": True, "players": [
        {"name": "Ann", "guild_markers": [6, 1], "dragon_vp": 31, "end_game_vp": -2, "eggs": 8, "cached": 5,
         "tucked": 3, "objective_places": [1, 0, 2, 2], "coins": 2, "items": 7, "fledglings": 1,
         "visible_dragons": 10},
        {"name": "Ben", "dragon_vp": 28, "visible_dragons": 11, "objective_places": [0, 0, 1, 1]}]},
    "quick, solo with the Automa": {"mode": "quick", "players": [{"name": "Me", "dragon_vp": 40}],
                                    "automa": {"dragon_vp": 30, "cache_tokens": 5, "guild_markers": [3]}},
    "quick, solo with the Automa in Ravel Mode": {"mode": "quick", "players": [{"name": "Me"}], "automa": {
        "level": 2, "ravel": True, "dragon_cards": 9, "cave_cards": 3, "guild_steps": 4, "guild_markers": [6]}},
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
    "card, solo with the Automa": {"mode": "card", "objectives": [{"tile": 1, "side": "a"}, None, None,
                                                                  {"tile": 8, "side": "a"}],
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
    again, _ = read_post(to_post(saved.data, cat), cat)
    expected = json.loads(json.dumps(saved.data))
    for player in expected["players"] if expected["mode"] == "card" else ():
        for cave_card in player["cave_cards"]:
            cave_card["card"] = None  # the page keeps the excavated spaces; a cave card's name scores nothing
    assert clean_sheet(again, cat) == expected
    page = client.get(f"/calculator/?from={saved.code}")
    assert page.status_code == 200
    assert f'value="{saved.data["players"][0]["name"]}"' in page.content.decode()


CARD_GAME = {
    "mode": "card", "objectives[3]": "8a",
    "players[0].name": "Ann",
    "players[0].mat.crimson_cavern[1].dragon": "74 Solitary Brown Drake",
    "players[0].mat.golden_grotto[1].dragon": "42 Great Golden Lung Dragon",
    "players[0].mat.golden_grotto[2].dragon": "47",
    "players[1].name": "Ben",
    "players[1].mat.golden_grotto[1].dragon": "17",
}


def test_card_form_takes_places_from_the_round_tracker(client, catalogue):
    response = client.post("/calculator/", {**CARD_GAME, "players[0].card.objective_places[0]": "1",
                                            "players[1].card.objective_places[0]": "2",
                                            "players[0].card.objective_places[2]": "0",
                                            "players[1].card.objective_places[2]": "1"})
    assert response.status_code == 200
    # Ann: 6 + 2 + 5 printed, 3 for the Lung Dragon's neighbour, round 1 1st (4), round 4 1st on medium (7).
    # Ben: 1 printed, round 1 2nd (1), round 3 1st (6).
    assert totals(response.content.decode()) == {"Ann": 13 + 3 + 4 + 7, "Ben": 1 + 1 + 6}


@pytest.mark.parametrize("extra, field, words", [
    ({"players[0].card.objective_places[1]": "3", "players[1].card.objective_places[1]": "1"},
     "players[0].card.objective_places[1]", "round 2: Ann is on 3rd, but nobody is on 2nd"),
    ({"players[0].card.objective_places[1]": "1"}, "players[1].card.objective_places[1]", "give Ben's place too"),
    ({"players[0].objective_counts[0]": "3"}, "players[0].objective_counts[0]", "round 1 has no objective tile"),
    ({"players[0].objective_counts[3]": "3", "players[0].card.objective_places[3]": "1",
      "players[1].card.objective_places[3]": "0"}, "players[0].card.objective_places[3]", "not both"),
    ({"players[0].card.objective_places[0]": "5th"}, "players[0].card.objective_places[0]", "1, 2, 3, or 0"),
    ({"players[1].mat.golden_grotto[1].cached": "x"}, "players[1].mat.golden_grotto[1].cached", "whole number"),
    ({"players[1].mat.golden_grotto[1].cached_other": "-1"}, "players[1].mat.golden_grotto[1].cached_other",
     "cannot be negative"),
    ({"players[0].mat.crimson_cavern.excavated": "9"}, "players[0].mat.crimson_cavern.excavated", "columns 2 to 4"),
], ids=["a skipped place", "a place missing", "a count without a tile", "a place and a count",
        "a place that does not exist", "cached that is not a number", "negative other kinds", "too many spaces dug"])
def test_card_form_marks_bad_rounds_and_rows_beside_their_fields(client, catalogue, extra, field, words):
    response = client.post("/calculator/", {**CARD_GAME, "save": "1", **extra})
    assert response.status_code == 400
    html = response.content.decode()
    assert any(words in e for e in field_errors(html, field)), (field, re.findall(r'calc-error"[^>]*>([^<]+)', html))
    assert f'href="#f-{slugify(field)}"' in html  # listed at the top, with a link to the field
    assert ScoreSheet.objects.count() == 0


def test_a_misspelt_dragon_on_the_page_is_one_error(client, catalogue):
    response = client.post("/calculator/", {**CARD_GAME, "players[0].mat.golden_grotto[1].dragon": "Great Golden Lng"})
    html = response.content.decode()
    assert response.status_code == 400
    assert re.findall(r'<li><a href="#([^"]+)"', html) == ["f-players0matgolden_grotto1dragon"]


def test_card_form_reads_cached_kinds_and_spaces_dug(client, catalogue):
    response = client.post("/calculator/", {**CARD_GAME, "save": "1",
                                            "players[1].mat.golden_grotto[1].cached": "3",
                                            "players[1].mat.golden_grotto[1].cached_other": "2",
                                            "players[0].mat.crimson_cavern.excavated": "4"})
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get()
    ann, ben = sheet.data["players"]
    assert ben["dragons"][0]["cached"] == {"milk": 3, "meat": 2}
    assert [(c["cave"], c["column"]) for c in ann["cave_cards"]] == [
        ("crimson_cavern", 2), ("crimson_cavern", 3), ("crimson_cavern", 4), ("golden_grotto", 2)]
    lines = {line["name"]: line for line in sheet.result["lines"]}
    assert lines["Ben"]["abilities_by_card"] == {ben["dragons"][0]["card"]: 3}  # milk only
    assert lines["Ann"]["breakdown"]["abilities"] == 3 + 3  # 74: four spaces dug in its cave; 42: one neighbour


def test_preview_answers_running_totals_and_ability_vp_by_the_pages_names(client, catalogue):
    response = client.post("/calculator/", {**CARD_GAME, "preview": "1",
                                            "players[1].mat.golden_grotto[1].cached": "2"})
    assert response.status_code == 200
    body = response.json()
    assert body["totals"] == {"players[0]": 13 + 3 + 7, "players[1]": 1 + 2 + 2}
    assert body["abilities"] == {"players[0].mat.crimson_cavern[1].dragon": 0,
                                 "players[0].mat.golden_grotto[1].dragon": 3,
                                 "players[1].mat.golden_grotto[1].dragon": 2}
    assert body["errors"] == {}


def test_preview_fails_soft_line_by_line(client, catalogue):
    response = client.post("/calculator/", {"mode": "quick", "preview": "1",
                                            "players[0].name": "Ann", "players[0].dragon_vp": "20",
                                            "players[0].objective_places[0]": "2",
                                            "players[2].name": "Cy", "players[2].eggs": "many"})
    assert response.status_code == 200
    body = response.json()
    # Ann's 2nd place has no 1st yet (Cy's line is not done): her total still counts it (1 VP), as not final.
    assert body["totals"] == {"players[0]": 21, "players[2]": None}
    assert body["final"] == {"players[0]": False, "players[2]": False}
    assert body["errors"]["players[2].eggs"] == ["must be a whole number"]
    assert ScoreSheet.objects.count() == 0


@pytest.mark.parametrize("post", [
    {"preview": "1"},
    {"preview": "1", "mode": "card", "players[0].name": "Ann", "players[0].mat.crimson_cavern[1].dragon": "x" * 500},
    {"preview": "1", "mode": "space", "players[0].name": "Ann", "objectives[0]": "zz"},
    {"preview": "1", "mode": "card", "players[0].name": "Ann", "players[0].card.objective_places[0]": "[1]",
     "players[0].mat.golden_grotto[1].dragon": "17", "players[0].mat.golden_grotto[1].cached": "1.5"},
], ids=["empty", "a long name", "an unknown mode", "junk places and cached"])
def test_preview_never_fails_on_bad_input(client, catalogue, post):
    response = client.post("/calculator/", post)
    assert response.status_code == 200
    assert set(response.json()) == {"totals", "final", "abilities", "errors", "general"}


def summary_links(page):
    return re.findall(r'<li><a href="#([^"]+)">', page)


# Card-mode number boxes on the page, by the API path the sheet's check names.
CARD_NUMBER_BOXES = {
    "players[0].card.coins": "players[0].coins",
    "players[0].mat.crimson_cavern[1].eggs": "players[0].dragons[0].eggs",
    "players[0].objective_counts[0]": "players[0].objective_counts[0]",  # round 1 has no tile: no second error
}
UNREADABLE = ["1-2", "1e", "1O", "--3", "2²", "1.5", "+"]


@pytest.mark.parametrize("typed", UNREADABLE)
def test_a_number_box_that_cannot_be_read_keeps_the_text_and_gets_one_error_as_in_the_api(client, score_api, catalogue,
                                                                                          typed):
    response = client.post("/calculator/", {**CARD_GAME, **{name: typed for name in CARD_NUMBER_BOXES}})
    assert response.status_code == 400
    page = response.content.decode()
    assert sorted(summary_links(page)) == sorted(f"f-{slugify(name)}" for name in CARD_NUMBER_BOXES)
    for name in CARD_NUMBER_BOXES:
        assert field_errors(page, name) == ["must be a whole number"]
        assert f'name="{name}" value="{html.escape(typed)}"' in page  # what was typed stays in the box
    status, body = score_api({"mode": "card", "objectives": [None, None, None, {"tile": 8, "side": "a"}], "players": [
        {"name": "Ann", "coins": typed, "objective_counts": [typed],
         "dragons": [{"card": 74, "cave": "crimson_cavern", "eggs": typed}]},
        {"name": "Ben"}]})
    assert status == 400
    assert body["errors"] == {path: ["must be a whole number"] for path in CARD_NUMBER_BOXES.values()}


@pytest.mark.parametrize("typed", UNREADABLE)
def test_a_quick_box_that_cannot_be_read_gets_one_error_naming_it(client, catalogue, typed):
    response = client.post("/calculator/", {"mode": "quick", "academy": "on", "players[0].name": "Ann",
                                            "players[0].eggs": typed, "players[0].end_game_vp": typed,
                                            "players[1].name": "Ben", "players[1].fledglings": "2",
                                            "players[1].visible_dragons": typed})
    assert response.status_code == 400
    page = response.content.decode()
    # Ben's 2 fledglings are not "more than his dragons": his dragons could not be read, which is one error.
    assert sorted(summary_links(page)) == ["f-players0eggs", "f-players0end_game_vp", "f-players1visible_dragons"]
    assert "Ann · Eggs</a>: must be a whole number" in page


def test_a_misspelt_dragon_before_another_is_one_error_on_the_page_with_a_link_that_leads_somewhere(client, catalogue):
    response = client.post("/calculator/", {**CARD_GAME, "players[1].mat.crimson_cavern[1].dragon": "60",
                                            "players[1].mat.crimson_cavern[2].dragon": "Temperate Bambo Dragon",
                                            "players[1].mat.crimson_cavern[3].dragon": "81"})
    assert response.status_code == 400
    page = response.content.decode()
    assert summary_links(page) == ["f-players1matcrimson_cavern2dragon"]
    assert "caves are excavated" not in page


def test_every_error_link_leads_to_an_element_of_the_page(client, catalogue):
    from game.calculator.form import layout

    form = layout({}, {"players[1].mat": ["a mat-wide mistake"]})
    assert form["summary"] == [{"id": "f-players1mat", "label": "Player 2 · Mat", "message": "a mat-wide mistake"}]
    page = client.get("/calculator/").content.decode()
    assert 'id="f-players1mat"' in page


def test_preview_marks_totals_that_need_a_line_with_a_mistake_as_not_final(client, catalogue):
    misspelt = {"players[1].mat.golden_grotto[2].dragon": "Temperate Bambo Dragon"}
    body = client.post("/calculator/", {**CARD_GAME, **misspelt, "preview": "1"}).json()
    # Ann's round 4 is ranked on the mats, Ben's among them: scored alone she is 1st whatever Ben has.
    assert body["totals"]["players[1]"] is None
    assert body["totals"]["players[0]"] is not None
    assert body["final"] == {"players[0]": False, "players[1]": False}
    body = client.post("/calculator/", {**CARD_GAME, "preview": "1"}).json()
    assert body["final"] == {"players[0]": True, "players[1]": True}


def test_preview_totals_in_quick_mode_stay_final_beside_a_line_with_a_mistake(client, catalogue):
    body = client.post("/calculator/", {"mode": "quick", "preview": "1", "players[0].name": "Ann",
                                        "players[0].dragon_vp": "20", "players[1].name": "Ben",
                                        "players[1].eggs": "1-2"}).json()
    assert body["totals"] == {"players[0]": 20, "players[1]": None}
    assert body["final"] == {"players[0]": True, "players[1]": False}


@pytest.mark.django_db(transaction=True)
def test_sign_ups_with_one_name_at_once_make_one_account_and_tell_the_rest_the_name_is_taken():
    """Five sign-ups with one name sent together: each form finds the name free, then all but one insert finds it
    taken. They are answered as one after another would be: one account, four forms saying the name is taken."""
    def sign_up(i):
        response = Client(raise_request_exception=False).post(
            "/accounts/signup/", {"username": "ann", "password1": f"wyrm-span-2024-{i}!",
                                  "password2": f"wyrm-span-2024-{i}!"})
        return response.status_code, response.content.decode()

    answers = at_once([lambda i=i: sign_up(i) for i in range(5)], hold=User)
    assert sorted(status for status, _ in answers) == [302, 400, 400, 400, 400]
    assert all("A user with that username already exists." in page for status, page in answers if status == 400)
    assert User.objects.filter(username="ann").count() == 1
