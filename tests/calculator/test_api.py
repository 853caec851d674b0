"""The calculator API: scoring, saving with a permalink, reading it back, and a signed-in player's history."""
import json

import pytest
from django.contrib.auth.models import User

from game.models import ScoreEntry, ScoreSheet

pytestmark = pytest.mark.django_db

GAME = {"mode": "quick", "title": "Friday game", "academy": True, "players": [
    {"name": "Ann", "dragon_vp": 40, "eggs": 6, "coins": 2, "items": 9, "visible_dragons": 10},
    {"name": "Ben", "dragon_vp": 35, "eggs": 9, "fledglings": 2, "visible_dragons": 11},
]}


def post(client, url, data):
    return client.post(url, data=json.dumps(data), content_type="application/json")


def test_score_answers_the_result_without_saving(client, catalogue):
    response = post(client, "/api/calculator/score/", GAME)
    assert response.status_code == 200
    body = response.json()
    assert [line["total"] for line in body["result"]["lines"]] == [40 + 6 + 2 + 2, 35 + 9 + 4]
    assert body["sheet"]["players"][0]["name"] == "Ann"
    assert ScoreSheet.objects.count() == 0


def test_saving_stores_the_sheet_and_one_entry_per_line_with_a_permalink(client, catalogue):
    response = post(client, "/api/calculator/sheets/", GAME)
    assert response.status_code == 201
    body = response.json()
    sheet = ScoreSheet.objects.get(code=body["code"])
    assert sheet.owner is None and sheet.title == "Friday game" and sheet.mode == "quick"
    assert body["url"].endswith(f"/calculator/s/{sheet.code}/")
    entries = {e.name: e for e in ScoreEntry.objects.filter(sheet=sheet)}
    assert entries["Ann"].total == 50 and entries["Ann"].won and entries["Ann"].place == 1
    assert entries["Ben"].fledglings == 4 and entries["Ben"].total == 48 and not entries["Ben"].won
    again = client.get(f"/api/calculator/sheets/{sheet.code}/")
    assert again.status_code == 200
    assert again.json()["result"] == body["result"]


def test_an_unknown_permalink_is_404(client, catalogue):
    assert client.get("/api/calculator/sheets/nope/").status_code == 404
    assert client.get("/calculator/s/nope/").status_code == 404


def test_history_needs_a_signed_in_player(client, catalogue):
    assert client.get("/api/calculator/history/").status_code in (401, 403)


def test_history_counts_games_wins_and_averages_of_the_players_own_lines(client, catalogue):
    user = User.objects.create_user("ann", password="a-long-password-1")
    client.force_login(user)
    post(client, "/api/calculator/sheets/", GAME)  # Ann (line 0, the default "me") wins with 50
    second = dict(GAME, players=[dict(GAME["players"][0], dragon_vp=20), GAME["players"][1]])
    post(client, "/api/calculator/sheets/", second)  # Ann loses with 30
    third = dict(GAME, me=1)  # here the owner is Ben, who loses with 48
    post(client, "/api/calculator/sheets/", third)
    body = client.get("/api/calculator/history/").json()
    stats = body["statistics"]
    assert stats["games"] == 3 and stats["wins"] == 1
    assert stats["average_total"] == round((50 + 30 + 48) / 3, 1)
    assert stats["averages"]["dragons"] == round((40 + 20 + 35) / 3, 1)
    assert stats["averages"]["fledglings"] == round(4 / 3, 1)
    assert len(body["sheets"]) == 3
    assert ScoreSheet.objects.filter(owner=user).count() == 3


def test_another_players_sheets_stay_out_of_my_history(client, catalogue):
    other = User.objects.create_user("ben", password="a-long-password-2")
    client.force_login(other)
    post(client, "/api/calculator/sheets/", GAME)
    client.logout()
    me = User.objects.create_user("ann", password="a-long-password-1")
    client.force_login(me)
    body = client.get("/api/calculator/history/").json()
    assert body["statistics"]["games"] == 0 and body["sheets"] == []


def test_the_api_schema_lists_the_calculator_endpoints(client, catalogue):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/calculator/score/" in schema and "/api/calculator/sheets/" in schema


def test_a_saved_card_sheet_lists_each_mat_cave_by_cave(client, catalogue):
    data = {"mode": "card", "players": [{"name": "Ann", "dragons": [
        {"card": 60, "cave": "crimson_cavern", "column": 2}, {"card": "74", "cave": "crimson_cavern", "column": 1}]}]}
    code = post(client, "/api/calculator/sheets/", data).json()["code"]
    page = client.get(f"/calculator/s/{code}/").content.decode()
    assert "<dd>74 Solitary Brown Drake · 60 Stealthy Rufftail</dd>" in page


def test_the_sheets_in_the_docs_score(client, catalogue):
    import re
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "calculator.md").read_text()
    sheets = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", docs, re.S) if '"mode"' in block]
    assert len(sheets) == 2
    for sheet in sheets:
        response = post(client, "/api/calculator/score/", sheet)
        assert response.status_code == 200, response.json()
