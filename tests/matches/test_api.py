"""The matches API: list and open, join and start, your view, your options and decisions, with their errors."""
import json

import pytest

from game.models import Match, MatchDecision

from .conftest import pending, snapshot


def post(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def test_open_a_match_and_find_it_in_the_open_list(api_as, catalogue, alice):
    response = post(api_as(alice), "/api/matches/", {"players": 3, "academy": True})
    assert response.status_code == 201, response.json()
    body = response.json()
    match = Match.objects.get(public_id=body["id"])
    assert (match.players, match.academy, match.updated, match.status) == (3, True, True, "open")
    assert [(s["seat"], s["user"], s["controller"], s["out"]) for s in body["seats"]] == [(0, "alice", "person", None)]
    assert body["your_seat"] == 0
    listed = api_as(None).get("/api/matches/?status=open").json()["results"]
    assert [m["id"] for m in listed] == [match.public_id]


@pytest.mark.parametrize("body, field", [
    ({"players": 9}, "players"), ({"players": "two"}, "players"), ({"academy": "no"}, "academy"),
    ({"updated": 1}, "updated"), ({"colour": "red"}, "colour"),
])
def test_opening_with_bad_options_names_the_field_and_saves_nothing(api_as, catalogue, alice, body, field):
    response = post(api_as(alice), "/api/matches/", body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert field in response.json()["detail"]
    assert not Match.objects.exists()


def test_opening_a_match_needs_a_signed_in_user(api_as, catalogue):
    assert post(api_as(None), "/api/matches/", {"players": 2}).status_code == 403
    assert not Match.objects.exists()


@pytest.mark.parametrize("query, field", [("status=done", "status"), ("mine=yes", "mine")])
def test_bad_list_filters_name_their_parameter(api_as, catalogue, alice, query, field):
    response = api_as(alice).get(f"/api/matches/?{query}")
    assert response.status_code == 400 and response.json()["field"] == field


def test_mine_lists_only_matches_with_your_seat(api_as, catalogue, alice, bob):
    post(api_as(alice), "/api/matches/", {"players": 2})
    theirs = post(api_as(bob), "/api/matches/", {"players": 2}).json()["id"]
    assert [m["id"] for m in api_as(bob).get("/api/matches/?mine=true").json()["results"]] == [theirs]


def test_joining_fills_the_last_seat_and_starts_the_match(api_as, catalogue, alice, bob):
    match_id = post(api_as(alice), "/api/matches/", {"players": 2}).json()["id"]
    response = post(api_as(bob), f"/api/matches/{match_id}/join/", {})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "playing" and body["your_seat"] == 1
    assert body["view"]["pending"]["player"] == 0
    assert "options" not in body["view"]["pending"]  # options are listed only to the player who decides
    assert post(api_as(bob), f"/api/matches/{match_id}/join/", {}).status_code == 409


def test_only_the_creator_may_start_early(api_as, catalogue, alice, bob):
    match_id = post(api_as(alice), "/api/matches/", {"players": 4}).json()["id"]
    post(api_as(bob), f"/api/matches/{match_id}/join/", {})
    assert post(api_as(bob), f"/api/matches/{match_id}/start/", {}).status_code == 403
    assert Match.objects.get(public_id=match_id).status == "open"
    response = post(api_as(alice), f"/api/matches/{match_id}/start/", {})
    assert response.status_code == 200 and response.json()["players"] == 2


def test_options_are_listed_to_the_player_who_decides_and_nobody_else(api_as, started, alice, bob):
    mine = api_as(alice).get(f"/api/matches/{started.public_id}/options/").json()
    assert mine["your_turn"] is True and mine["version"] == 0
    assert [{"kind": o["kind"], "args": o["args"]} for o in mine["options"]] == pending(started)[2]
    assert all(o["label"] for o in mine["options"])
    theirs = api_as(bob).get(f"/api/matches/{started.public_id}/options/").json()
    assert theirs == {"version": 0, "your_turn": False, "prompt": None, "kind": None, "data": None, "options": []}


def _to_main_action(api_as, match, users):
    """Answer the setup questions through the API with each first option; returns the options of the first turn."""
    for _ in range(10):
        for user in users:
            body = api_as(user).get(f"/api/matches/{match.public_id}/options/").json()
            if body["your_turn"]:
                break
        if body["kind"] == "main_action":
            return body
        option = body["options"][0]
        assert post(api_as(user), f"/api/matches/{match.public_id}/decisions/",
                    {"version": body["version"], "option": option}).status_code == 201
    raise AssertionError("setup did not end")


def test_options_say_what_is_asked_and_what_each_option_costs_and_concerns(api_as, started, alice, bob):
    first = api_as(alice).get(f"/api/matches/{started.public_id}/options/").json()
    assert first["kind"] == "setup_keep" and first["data"] == {"drop": 2}
    args = first["options"][0]["args"]
    dropped = first["options"][0]["info"]["cards"]
    assert [(c["type"], c["index"]) for c in dropped] == [(args[0], args[1]), (args[2], args[3])]
    assert all(c["name"] and c["number"] for c in dropped)
    turn = _to_main_action(api_as, started, (alice, bob))
    assert turn["data"] == {}
    explore = [o for o in turn["options"] if o["kind"] == "explore"]
    assert [o["info"]["cave"] for o in explore] == [0, 1, 2]
    assert all(o["info"]["cost"] == {"coin": 1} and o["info"]["label"] == o["label"] for o in explore)
    entice = [o["info"] for o in turn["options"] if o["kind"] == "entice"]
    for info in entice:  # the dragon, the space it would take, and the coin beside its printed cost
        assert info["card"]["type"] == "dragon" and info["space"]["cave"] == info["cave"]
        assert info["cost"]["coin"] >= 1
    exchange = next(o["info"] for o in turn["options"] if o["kind"] == "exchange")
    assert sum(exchange["cost"].values()) == 2 and list(exchange["gain"].values()) == [1]


def test_the_view_says_what_kind_of_question_waits_for_whom(api_as, started, alice, bob):
    mine = api_as(alice).get(f"/api/matches/{started.public_id}/").json()["view"]["pending"]
    theirs = api_as(bob).get(f"/api/matches/{started.public_id}/").json()["view"]["pending"]
    assert (mine["kind"], mine["data"], mine["player"]) == ("setup_keep", {"drop": 2}, 0)
    assert (theirs["kind"], theirs["data"]) == (mine["kind"], mine["data"]) and "options" not in theirs
    assert all(o["info"]["label"] == o["label"] for o in mine["options"])


def test_an_option_sent_back_with_a_field_it_never_had_is_refused(api_as, started, alice):
    option = api_as(alice).get(f"/api/matches/{started.public_id}/options/").json()["options"][0]
    before = snapshot(started.pk)
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/",
                    {"version": 0, "option": dict(option, cost={"coin": 0})})
    assert response.status_code == 400 and response.json()["field"] == "option"
    assert "cost" in response.json()["detail"]
    assert snapshot(started.pk) == before


def test_a_decision_answers_with_the_new_view(api_as, started, alice):
    option = api_as(alice).get(f"/api/matches/{started.public_id}/options/").json()["options"][0]
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/",
                    {"version": 0, "option": {"kind": option["kind"], "args": option["args"]}})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["version"] == 1 and Match.objects.get(pk=started.pk).version == 1
    setup, first = body["log"][0], body["log"][-1]
    assert setup["title"] == "Setup" and setup["lines"][0]["decision"] == 0
    kept = [line for line in first["lines"] if line["decision"] == 1]
    assert [line["kind"] for line in kept] == ["kept"] and kept[0]["text"].startswith("alice kept ")
    assert MatchDecision.objects.get(match=started, number=1).events[0]["e"] == "kept"


def test_the_option_may_carry_its_label_and_info_back(api_as, started, alice):
    option = api_as(alice).get(f"/api/matches/{started.public_id}/options/").json()["options"][0]
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/", {"version": 0, "option": option})
    assert response.status_code == 201


def test_stale_version_answers_409(api_as, started, alice):
    options = pending(started)[2]
    post(api_as(alice), f"/api/matches/{started.public_id}/decisions/", {"version": 0, "option": options[0]})
    before = snapshot(started.pk)
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/",
                    {"version": 0, "option": pending(started)[2][0]})
    assert response.status_code == 409 and "version 1" in response.json()["detail"]
    assert snapshot(started.pk) == before


def test_illegal_decision_answers_400_with_the_engines_message(api_as, started, alice):
    before = snapshot(started.pk)
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/",
                    {"version": 0, "option": {"kind": "resources", "args": ["meat", "meat", "meat"]}})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("You tried 'Take meat, meat, meat'")
    assert snapshot(started.pk) == before


def test_not_your_turn_answers_403(api_as, started, bob, carol):
    before = snapshot(started.pk)
    for user in (bob, carol):
        response = post(api_as(user), f"/api/matches/{started.public_id}/decisions/",
                        {"version": 0, "option": pending(started)[2][0]})
        assert response.status_code == 403
    assert post(api_as(None), f"/api/matches/{started.public_id}/decisions/",
                {"version": 0, "option": pending(started)[2][0]}).status_code == 403
    assert snapshot(started.pk) == before


@pytest.mark.parametrize("body, field", [
    ({"option": {"kind": "pass"}}, "version"),
    ({"version": "0", "option": {"kind": "pass"}}, "version"),
    ({"version": 0}, "option"),
    ({"version": 0, "option": "pass"}, "option"),
    ({"version": 0, "option": {"kind": "pass", "args": {"a": 1}}}, "option"),
    ({"version": 0, "option": {"kind": ["pass"]}}, "option"),
    ({"version": 0, "option": {"kind": "pass"}, "seat": 1}, "seat"),
    ([1, 2], "body"),
])
def test_malformed_decisions_name_the_field_and_change_nothing(api_as, started, alice, body, field):
    before = snapshot(started.pk)
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/", body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert snapshot(started.pk) == before
    assert not MatchDecision.objects.exists()


def test_a_body_that_is_not_json_is_refused(api_as, started, alice):
    response = api_as(alice).post(f"/api/matches/{started.public_id}/decisions/", data="{version: 0",
                                  content_type="application/json")
    assert response.status_code == 400
    assert Match.objects.get(pk=started.pk).version == 0


def test_unknown_match_answers_404(api_as, catalogue, alice):
    assert api_as(alice).get("/api/matches/999/").status_code == 404
    assert post(api_as(alice), "/api/matches/999/decisions/", {"version": 0, "option": {"kind": "pass"}}) \
        .status_code == 404


def test_an_unchanged_match_answers_304_to_its_etag_and_a_new_view_once_it_moves(api_as, started, alice, bob):
    first = api_as(bob).get(f"/api/matches/{started.public_id}/")
    etag = first["ETag"]
    again = api_as(bob).get(f"/api/matches/{started.public_id}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    # Another viewer's copy differs (their hand), so the tag is never shared between users.
    assert api_as(alice).get(f"/api/matches/{started.public_id}/", HTTP_IF_NONE_MATCH=etag).status_code == 200
    post(api_as(alice), f"/api/matches/{started.public_id}/decisions/", {"version": 0, "option": pending(started)[2][0]})
    moved = api_as(bob).get(f"/api/matches/{started.public_id}/", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved.json()["version"] == 1


def test_the_view_names_the_guild_rows_in_play_and_says_when_the_tile_is_incomplete(api_as, started, alice):
    body = api_as(alice).get(f"/api/matches/{started.public_id}/").json()
    tile = body["view"]["guild"]["tile_number"]
    rows = started.catalogue.data["guild_tiles"]
    record = next(t for t in rows if t["number"] == tile)
    assert len(body["guild_rows"]) == len(record["rows"]) and all(r["text"] for r in body["guild_rows"])
    assert body["guild_complete"] is record["complete"]


def test_a_pick_whose_place_is_a_number_answers_400_and_saves_nothing(api_as, started, alice):
    before = snapshot(started.pk)
    response = post(api_as(alice), f"/api/matches/{started.public_id}/decisions/",
                    {"version": 0, "option": {"kind": "pick", "args": [1, "dragon", 5]}})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("You tried 'pick 1 dragon 5'")
    assert snapshot(started.pk) == before


def test_every_match_endpoint_is_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()
                  if isinstance(op, dict) and "operationId" in op}
    assert {"matches_resign", "matches_abort", "matches_rematch", "matches_join_by_invite", "matches_chat_list",
            "matches_chat_create", "notifications_retrieve", "notifications_update", "matches_preview",
            "matches_replay_step", "matches_orders_read", "matches_orders_set"} <= operations
