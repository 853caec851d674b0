"""Text PostgreSQL cannot store (a NUL, a lone surrogate) and JSON nested too deep for the parser are refused in one
place, before any view, with one 400 naming the field; nothing is saved. (On PostgreSQL a NUL used to be a 500 on
every page that looked it up; Python's JSON parser raised RecursionError at about 900 levels.)"""
import json

import pytest

from game.models import Match, ScoreSheet

SHEET = {"mode": "quick", "players": [{"name": "Ann", "dragon_vp": 3}, {"name": "Ben", "dragon_vp": 2}]}


def deep(levels):
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("url, field", [
    ("/calculator/s/ab%00cd/", "path"),
    ("/api/calculator/sheets/ab%00cd/", "path"),
    ("/calculator/?from=ab%00", "from"),
    ("/cards/?q=size:large%00", "q"),
    ("/api/dragons/?name=a%00", "name"),
    ("/api/matches/?status=open%00", "status"),
    ("/checker/?card=Smirking%00Ridgeback", "card"),
    ("/api/checker/?card=%00", "card"),
])
def test_a_nul_in_the_path_or_query_is_a_400_naming_it(visitor, catalogue, url, field):
    response = visitor.get(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == field
    assert body["code"] == "refused_characters"
    assert "cannot store" in body["detail"]


def test_a_nul_in_a_page_query_gets_the_error_page(visitor, catalogue):
    response = visitor.get("/calculator/?from=ab%00")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "from: this text holds a character the site cannot store" in response.content.decode()


@pytest.mark.parametrize("name", ["A\u0000nn", "\ud800", "Ann\udfff"])
@pytest.mark.parametrize("url", ["/api/calculator/score/", "/api/calculator/sheets/"])
def test_refused_characters_in_json_name_the_json_path_and_save_nothing(visitor, catalogue, url, name):
    sheet = json.loads(json.dumps(SHEET))
    sheet["players"][1]["name"] = name
    response = visitor.post(url, json.dumps(sheet), content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "players[1].name"
    assert not ScoreSheet.objects.exists()


def test_a_refused_character_in_a_json_key_is_named(visitor, catalogue):
    response = visitor.post("/api/checker/", '{"card": "Smirking Ridgeback", "situation": {"a\\u0000b": 1}}',
                            content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "situation.a\\x00b"


@pytest.mark.parametrize("fields, field", [
    ({"username": "ma\x00llory", "password": "x"}, "username"),
    ({"username": "mallory", "password": "pass\x00word"}, "password"),
])
def test_a_nul_in_a_form_field_is_a_400_naming_it(visitor, user, fields, field):
    response = visitor.post("/accounts/login/", fields)
    assert response.status_code == 400
    assert f"{field}: this text holds a character" in response.content.decode()


def test_a_nul_in_the_calculator_form_saves_nothing(visitor, catalogue):
    response = visitor.post("/calculator/", {"mode": "quick", "p0_name": "A\x00", "save": "1"})
    assert response.status_code == 400
    assert not ScoreSheet.objects.exists()


def test_a_nul_in_a_cookie_is_a_400(visitor, catalogue):
    response = visitor.get("/calculator/history/", HTTP_COOKIE='sessionid="abcdefgh\\000"')
    assert response.status_code == 400
    assert "cookie sessionid" in response.content.decode()


JSON_ENDPOINTS = ["/api/checker/", "/api/calculator/score/", "/api/calculator/sheets/", "/api/matches/",
                  "/api/matches/{public_id}/decisions/"]


@pytest.fixture
def a_match(catalogue, user):
    from game.matches import services
    return services.create_match(user, players=2)


@pytest.mark.parametrize("url", JSON_ENDPOINTS)
@pytest.mark.parametrize("levels", [941, 5000, 33])
def test_json_nested_too_deep_is_one_400_for_every_json_endpoint(signed_in, a_match, url, levels):
    before = Match.objects.count(), ScoreSheet.objects.count()
    response = signed_in.post(url.format(public_id=a_match.public_id), deep(levels), content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json() == {"detail": "body: the JSON is nested more than 32 levels deep", "code": "too_deep",
                               "field": "body", "errors": {"body": ["the JSON is nested more than 32 levels deep"]}}
    assert (Match.objects.count(), ScoreSheet.objects.count()) == before


def test_json_as_deep_as_allowed_reaches_the_view(signed_in, catalogue):
    response = signed_in.post("/api/checker/", json.dumps({"card": "Smirking Ridgeback", "situation": {
        "hand": json.loads(deep(30))}}), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"].startswith("situation.hand")


def test_a_deep_body_with_a_json_suffix_type_is_refused_too(visitor, catalogue):
    response = visitor.post("/api/checker/", deep(2000), content_type="application/merge-patch+json")
    assert response.status_code == 400
    assert response.json()["code"] == "too_deep"


def test_a_body_that_is_not_json_is_left_to_the_parser(visitor, catalogue):
    response = visitor.post("/api/checker/", "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
