"""The game history (game/matches/history.py) at /games/ and /api/games/: finished games, newest first, searched
by player, date, player count, expansion, opponent kind, result and score, in keyset pages; private games only for
who played them; and the game's own page: breakdown, replay, analysis from any move, names linked to profiles."""
import importlib
import json
import random
import re
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.matches import services
from game.models import FinishedGame, FinishedSeat, GameOpponent, Guest, Match, Profile

from .conftest import user_at


def play_against_bots(match_id, seed):
    """Random legal decisions for the person; the bots' moves as the queue makes them."""
    rng = random.Random(seed)
    for _ in range(5000):
        match = Match.objects.get(pk=match_id)
        state = services.load_state(match)
        if state.pending is None:
            break
        user = user_at(match, state.pending.player)
        if user is None:
            services.machine_move(match_id, match.version)
            continue
        services.submit_decision(match_id, user, match.version, rng.choice(state.legal_options()).to_dict())
    return Match.objects.get(pk=match_id)


def client_as(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(api_as, user=None, **params):
    return api_as(user).get("/api/games/", params)


def ids_of(response):
    assert response.status_code == 200, response.content
    return [g["id"] for g in response.json()["results"]]


def newest_first(matches):
    rows = FinishedGame.objects.filter(match__in=matches).order_by("-finished", "-match_id")
    return [row.match.public_id for row in rows]


def total(match, user):
    return match.state["result"]["scores"][match.seats.get(user=user).seat]["total"]


def won(match, user):
    return match.places[match.seats.get(user=user).seat] == 1


@pytest.fixture
def history(finish_rated, alice, bob, carol):
    """Two base games of Alice and Bob, a Dragon Academy game of three, a private game of Bob and Carol, Alice's
    solo game against the Automa level 2 and her game against a greedy bot."""
    base1 = finish_rated(alice, bob, seed=11)
    base2 = finish_rated(bob, alice, seed=12)
    academy = finish_rated(alice, bob, carol, seed=13, academy=True)
    private = finish_rated(bob, carol, seed=14, private=True)
    solo = finish_rated(alice, seed=4, automa_level=2)
    botted = services.play_now(alice, opponent="bots", bot_levels=["greedy"])
    botted = play_against_bots(botted.pk, seed=5)
    assert botted.status == Match.Status.FINISHED
    from game.ratings.service import rate_finished
    rate_finished()
    return {"base1": base1, "base2": base2, "academy": academy, "private": private, "solo": solo,
            "bots": Match.objects.get(pk=botted.pk)}


def test_every_finished_game_is_listed_newest_first_with_its_lines(history, alice, api_as):
    public = [history[k] for k in ("base1", "base2", "academy")]
    assert ids_of(api(api_as)) == newest_first(public)
    body = api(api_as).json()["results"]
    game = next(g for g in body if g["id"] == history["academy"].public_id)
    assert game["players"] == 3 and game["academy"] is True and game["url"] == f"/matches/{game['id']}/"
    by_name = {line["name"]: line for line in game["lines"]}
    match = history["academy"]
    for user in match.seats.values_list("user__username", flat=True):
        seat = match.seats.get(user__username=user).seat
        assert by_name[user]["score"] == match.state["result"]["scores"][seat]["total"]
        assert by_name[user]["place"] == match.places[seat]
        assert by_name[user]["profile"] == f"/players/{user}/"
    # Alice sees her own private games (solo and against the bot) too.
    mine = ids_of(api(api_as, alice))
    assert mine == newest_first(public + [history["solo"], history["bots"]])


def test_games_not_finished_or_aborted_are_not_listed(history, alice, bob, api_as):
    services.create_match(alice, players=2)
    playing = services.create_match(alice, players=2)
    services.join_match(playing.pk, bob)
    aborted = services.create_match(bob, players=2)
    services.abort_match(aborted.pk, bob)
    assert len(ids_of(api(api_as, alice))) == 5


def test_private_games_are_listed_only_to_who_played_them(history, alice, bob, carol, api_as):
    private = history["private"].public_id
    assert private not in ids_of(api(api_as))
    assert private not in ids_of(api(api_as, alice))
    assert private in ids_of(api(api_as, bob)) and private in ids_of(api(api_as, carol))
    assert private not in ids_of(api(api_as, alice, player="bob"))
    assert private in ids_of(api(api_as, carol, player="bob"))
    assert history["solo"].public_id not in ids_of(api(api_as, bob, player="alice"))
    html = client_as(None).get("/games/").content.decode()
    assert private not in html and history["base1"].public_id in html


def test_by_player(history, alice, carol, api_as):
    assert ids_of(api(api_as, None, player="carol")) == [history["academy"].public_id]
    assert ids_of(api(api_as, carol, player="carol")) == newest_first([history["academy"], history["private"]])
    refused = api(api_as, None, player="nobody")
    assert refused.status_code == 400 and refused.json()["field"] == "player"


def test_a_hidden_profile_or_a_guest_is_not_searched_by_others_and_not_linked(history, alice, bob, api_as):
    Profile.objects.create(user=alice, hidden=True)
    refused = api(api_as, bob, player="alice")
    assert refused.status_code == 400 and refused.json()["field"] == "player"
    assert "there is no player alice" in refused.json()["detail"]
    assert ids_of(api(api_as, alice, player="alice"))  # her own games, for her
    lines = [line for g in api(api_as).json()["results"] for line in g["lines"] if line["name"] == "alice"]
    assert lines and all(line["profile"] is None for line in lines)
    html = client_as(None).get("/games/").content.decode()
    assert 'href="/players/alice/"' not in html and 'href="/players/bob/"' in html
    Guest.objects.create(user=bob)
    assert api(api_as, alice, player="bob").status_code == 400


def test_by_date(history, alice, api_as):
    FinishedGame.objects.filter(match=history["base1"]).update(finished=timezone.now() - timedelta(days=10))
    FinishedSeat.objects.filter(game_id=history["base1"].pk).update(finished=timezone.now() - timedelta(days=10))
    GameOpponent.objects.filter(game_id=history["base1"].pk).update(finished=timezone.now() - timedelta(days=10))
    old_day = (timezone.localdate() - timedelta(days=10)).isoformat()
    today = timezone.localdate().isoformat()
    assert ids_of(api(api_as, None, date_to=old_day)) == [history["base1"].public_id]
    assert ids_of(api(api_as, None, date_from=old_day, date_to=old_day)) == [history["base1"].public_id]
    assert history["base1"].public_id not in ids_of(api(api_as, None, date_from=today))
    assert ids_of(api(api_as, None, player="bob", date_to=old_day)) == [history["base1"].public_id]
    assert ids_of(api(api_as, None, opponent="human", date_to=old_day)) == [history["base1"].public_id]
    for params, field in (({"date_from": "yesterday"}, "date_from"), ({"date_to": "2026-13-01"}, "date_to"),
                          ({"date_from": today, "date_to": old_day}, "date_to")):
        refused = api(api_as, None, **params)
        assert refused.status_code == 400 and refused.json()["field"] == field


def test_by_player_count_and_expansion(history, alice, api_as):
    assert ids_of(api(api_as, None, players=3)) == [history["academy"].public_id]
    assert ids_of(api(api_as, alice, players=1)) == [history["solo"].public_id]
    assert ids_of(api(api_as, alice, player="alice", players=1)) == [history["solo"].public_id]
    assert ids_of(api(api_as, None, academy="yes")) == [history["academy"].public_id]
    assert ids_of(api(api_as, None, academy="no")) == newest_first([history["base1"], history["base2"]])
    assert ids_of(api(api_as, None, player="bob", academy="yes")) == [history["academy"].public_id]
    for params, field in (({"players": "0"}, "players"), ({"players": "6"}, "players"),
                          ({"players": "two"}, "players"), ({"academy": "maybe"}, "academy")):
        refused = api(api_as, None, **params)
        assert refused.status_code == 400 and refused.json()["field"] == field


def test_by_opponent_kind(history, alice, bob, carol, api_as):
    two_or_more = [history[k] for k in ("base1", "base2", "academy")]
    assert ids_of(api(api_as, alice, opponent="human")) == newest_first(two_or_more)
    assert ids_of(api(api_as, alice, opponent="automa:2")) == [history["solo"].public_id]
    assert ids_of(api(api_as, alice, opponent="automa:1")) == []
    assert ids_of(api(api_as, alice, opponent="bot:greedy")) == [history["bots"].public_id]
    assert ids_of(api(api_as, alice, player="alice", opponent="bot:greedy")) == [history["bots"].public_id]
    assert ids_of(api(api_as, alice, player="alice", opponent="human")) == newest_first(two_or_more)
    assert ids_of(api(api_as, bob, player="bob", opponent="automa:2")) == []
    refused = api(api_as, None, opponent="bot:genius")
    assert refused.status_code == 400 and refused.json()["field"] == "opponent"


def test_by_result(history, alice, api_as):
    hers = [history[k] for k in ("base1", "base2", "academy", "solo", "bots")]
    solo = history["solo"]
    wins = [m for m in hers if (solo.state["result"]["places"][0] == 1 if m is solo else won(m, alice))]
    assert ids_of(api(api_as, alice, player="alice", result="won")) == newest_first(wins)
    assert ids_of(api(api_as, alice, player="alice", result="lost")) == newest_first(
        [m for m in hers if m not in wins])
    refused = api(api_as, None, result="won")
    assert refused.status_code == 400 and refused.json()["field"] == "result"
    refused = api(api_as, None, player="alice", result="drew")
    assert refused.status_code == 400 and refused.json()["field"] == "result"


def test_by_score(history, alice, bob, api_as):
    two = [history["base1"], history["base2"], history["academy"]]
    scores = {m.public_id: total(m, bob) for m in two}
    low = min(scores.values())
    assert ids_of(api(api_as, None, player="bob", score_max=low)) == [k for k in newest_first(two)
                                                                      if scores[k] <= low]
    assert ids_of(api(api_as, None, player="bob", score_min=low + 1)) == [k for k in newest_first(two)
                                                                          if scores[k] > low]
    # Without a player: any seat's score.
    everyone = {m.public_id: [line["total"] for line in m.state["result"]["scores"]] for m in two}
    best = max(max(v) for v in everyone.values())
    assert ids_of(api(api_as, None, score_min=best)) == [k for k in newest_first(two) if max(everyone[k]) >= best]
    assert ids_of(api(api_as, None, score_min=best + 1)) == []
    for params, field in (({"score_min": "-1"}, "score_min"), ({"score_max": "lots"}, "score_max"),
                          ({"score_min": "50", "score_max": "40"}, "score_max")):
        refused = api(api_as, None, **params)
        assert refused.status_code == 400 and refused.json()["field"] == field


def test_keyset_pages_walk_the_list_once(history, alice, api_as):
    expected = ids_of(api(api_as, alice))
    seen, params = [], {"limit": 2}
    while True:
        body = api(api_as, alice, **params).json()
        seen += [g["id"] for g in body["results"]]
        if body["next"] is None:
            break
        assert len(body["results"]) == 2
        params = {k: v[0] for k, v in parse_qs(urlparse(body["next"]).query).items()}
    assert seen == expected
    filtered = api(api_as, alice, player="alice", limit=1).json()
    assert "player=alice" in filtered["next"] and filtered["after"] == expected[0]


def test_bad_paging_and_unknown_parameters_are_400s_naming_the_field(history, api_as):
    for params, field in (({"limit": "0"}, "limit"), ({"limit": "51"}, "limit"), ({"limit": "x"}, "limit"),
                          ({"after": "not an id!"}, "after"), ({"after": "abcdefghijkl"}, "after"),
                          ({"colour": "red"}, "colour")):
        refused = api(api_as, None, **params)
        assert refused.status_code == 400 and refused.json()["field"] == field, (params, refused.content)


def test_a_page_reads_a_fixed_number_of_queries(history, alice, api_as):
    client = api_as(alice)
    with CaptureQueriesContext(connection) as one:
        client.get("/api/games/", {"limit": 1})
    with CaptureQueriesContext(connection) as many:
        client.get("/api/games/", {"limit": 5})
    assert len(many) == len(one)
    assert not any('"state"' in q["sql"] for q in many.captured_queries)


def test_the_page_lists_searches_and_pages(history, alice, bob):
    client = client_as(None)
    html = client.get("/games/").content.decode()
    assert 'id="games-search"' in html and history["base1"].public_id in html
    assert re.search(r'<a href="/players/bob/" class="player-link">bob</a>: \d+ VP, \d(st|nd|rd)', html)
    html = client.get("/games/", {"player": "bob", "players": "3"}).content.decode()
    rows = re.findall(r'data-match="(\w+)"', html)
    assert rows == [history["academy"].public_id]
    FinishedGame.objects.update(finished=timezone.now())  # one moment: the order falls to the match's number
    page = client.get("/games/")
    first = re.findall(r'data-match="(\w+)"', page.content.decode())
    assert len(first) == 3 and 'id="games-older"' not in page.content.decode()


def test_older_games_link_on_the_page(finish_rated, alice, bob, monkeypatch):
    from game.matches import history as history_reads
    monkeypatch.setattr(history_reads, "PAGE", 1)
    import game.views_games as views
    monkeypatch.setattr(views.history, "PAGE", 1)
    first, second = finish_rated(alice, bob, seed=11), finish_rated(alice, bob, seed=12)
    html = client_as(None).get("/games/").content.decode()
    older = re.search(r'<a href="([^"]+)" id="games-older"', html).group(1).replace("&amp;", "&")
    assert re.findall(r'data-match="(\w+)"', html) == [newest_first([first, second])[0]]
    html = client_as(None).get("/games/" + older).content.decode()
    assert re.findall(r'data-match="(\w+)"', html) == [newest_first([first, second])[1]]


def test_bad_filters_are_form_errors_on_the_page(history):
    response = client_as(None).get("/games/", {"players": "9", "date_from": "soon"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="error-date_from"' in html and 'id="games-list"' not in html
    response = client_as(None).get("/games/", {"result": "won"})
    assert 'id="error-result"' in response.content.decode()


def test_the_data_migration_fills_the_history_of_games_finished_before(history, alice, api_as):
    before = ids_of(api(api_as, alice))
    lines = sorted(FinishedSeat.objects.values_list("game_id", "seat", "user_id", "kind", "score", "place", "won"))
    versus = sorted(GameOpponent.objects.values_list("game_id", "user_id", "kind"), key=repr)
    FinishedGame.objects.all().delete()
    assert ids_of(api(api_as, alice)) == []
    migration = importlib.import_module("game.migrations.0016_fill_history")
    migration.fill(django_apps, None)
    assert sorted(FinishedSeat.objects.values_list("game_id", "seat", "user_id", "kind", "score", "place",
                                                   "won")) == lines
    assert sorted(GameOpponent.objects.values_list("game_id", "user_id", "kind"), key=repr) == versus
    assert ids_of(api(api_as, alice)) == before


def test_the_solo_line_of_the_automa(history, alice, api_as):
    solo = history["solo"]
    game = api(api_as, alice, players=1).json()["results"][0]
    assert [line["kind"] for line in game["lines"]] == ["human", "automa:2"]
    assert [line["score"] for line in game["lines"]] == [s["total"] for s in solo.state["result"]["scores"]]
    assert [line["place"] for line in game["lines"]] == solo.state["result"]["places"]
    assert game["lines"][1]["name"] == "The Automa" and game["lines"][1]["profile"] is None


# -- the game's own page -------------------------------------------------------------------------------------------

def test_a_finished_games_page_has_the_breakdown_replay_and_profile_links(history, alice, bob):
    Profile.objects.create(user=bob, hidden=True)
    html = client_as(None).get(history["base1"].get_absolute_url()).content.decode()
    assert 'id="final-scores"' in html and 'id="replay-link"' in html and 'href="#replay"' in html
    assert 'href="/players/alice/"' in html and 'href="/players/bob/"' not in html
    bots_page = client_as(alice).get(history["bots"].get_absolute_url()).content.decode()
    header = re.search(r'<span id="match-seats">(.*?)</span>', bots_page, re.S).group(1)
    assert '<a href="/players/alice/" class="player-link">alice</a>' in header and "Bot (greedy)" in header
    assert header.count("<a ") == 1


def position(response):
    assert response.status_code == 302, response.content
    return json.loads(parse_qs(urlparse(response["Location"]).query)["p"][0])


def test_analyse_from_a_move_takes_the_table_as_it_was_then(history, alice):
    match = history["base1"]
    client = client_as(alice)
    url = f"/matches/{match.public_id}/analyse/"
    now = position(client.get(url))
    assert position(client.get(url, {"move": match.version})) == now
    start = position(client.get(url, {"move": 0}))
    assert start != now
    rounds = [e["round"] for e in start["edits"] if e["do"] == "round"]
    assert rounds == [1]
    middle = position(client.get(url, {"move": match.version // 2}))
    assert middle not in (start, now)
    for bad in ("-1", str(match.version + 1), "x"):
        refused = client.get(url, {"move": bad})
        assert refused.status_code == 400 and b"expected a move from 0 to" in refused.content


def test_the_menu_plays_in_the_lobby_and_lists_the_games(catalogue):
    html = client_as(None).get("/").content.decode()
    assert '<a href="/play/" id="play-link">' in html
    assert '<a href="/games/" id="games-link">Games</a>' in html
