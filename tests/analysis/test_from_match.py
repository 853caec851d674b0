"""'Analyse from here': a match moment opens on the board as the visitor sees it; hidden parts are a sample."""
import json
from urllib.parse import parse_qs, urlparse

import pytest

from game.engine.view import view_for
from game.matches import services
from game.models import Match
from tests.matches.conftest import alice, bob, make_user, play_randomly  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(catalogue, alice, bob):  # noqa: F811
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    return play_randomly(match.pk, 30, seed=5)


def position_of(response):
    assert response.status_code == 302
    url = urlparse(response["Location"])
    assert url.path == "/analysis/"
    return json.loads(parse_qs(url.query)["p"][0])


def analyse(client, position):
    response = client.post("/api/analysis/", data=json.dumps({"position": position}), content_type="application/json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_seated_player_sees_their_own_hand_and_only_counts_of_the_others(client, played, alice):  # noqa: F811
    client.force_login(alice)
    position = position_of(client.get(f"/matches/{played.public_id}/analyse/"))
    hands = {e["seat"]: e["dragons"] for e in position["edits"] if e["do"] == "hand"}
    state = services.load_state(Match.objects.get(pk=played.pk))
    assert hands[0] == [state.cat.dragons[d].number for d in state.players[0].hand]
    assert hands[1] == len(state.players[1].hand)  # a count: bob's cards are not in the link
    assert position["setup"]["seed"] == played.version  # not the match's secret seed

    table = analyse(client, position)["table"]
    seen = view_for(state, 0)
    for mine, theirs in zip(table["seats"], seen["players"]):
        assert mine["coins"] == theirs["coins"] and mine["resources"] == theirs["resources"]
        assert len(mine["hand"]) == theirs["hand_count"]
        dragons = [state.cat.dragons[s["dragon"]].number if s["dragon"] is not None else None for s in theirs["mat"]]
        assert [s["dragon"]["number"] if s["dragon"] else None for s in mine["mat"]] == dragons
        assert [s["eggs"] for s in mine["mat"]] == [s["eggs"] for s in theirs["mat"]]
    assert table["round"] == seen["round"] and table["current"] == seen["current_player"]


def test_a_spectator_gets_counts_for_every_hand(client, played):
    position = position_of(client.get(f"/matches/{played.public_id}/analyse/"))
    assert all(isinstance(e["dragons"], int) for e in position["edits"] if e["do"] == "hand")


def test_the_match_board_links_to_analyse_from_here(client, played, alice):  # noqa: F811
    client.force_login(alice)
    assert f'href="/matches/{played.public_id}/analyse/"' in client.get(f"/matches/{played.public_id}/").content.decode()


def test_a_match_not_started_goes_back_to_its_board(client, catalogue, alice):  # noqa: F811
    match = services.create_match(alice, players=2)
    response = client.get(f"/matches/{match.public_id}/analyse/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.public_id}/"


@pytest.mark.parametrize("seed, decisions, academy, players", [(1, 12, False, 3), (2, 60, True, 2), (3, 110, False, 2),
                                                               (4, 90, True, 4)])
def test_any_moment_of_a_random_match_opens_on_the_board(client, catalogue, make_user, seed, decisions,  # noqa: F811
                                                         academy, players):
    users = [make_user(f"player{seed}-{n}") for n in range(players)]
    match = services.create_match(users[0], players=players, academy=academy)
    for user in users[1:]:
        services.join_match(match.pk, user)
    match = play_randomly(match.pk, decisions, seed=seed)
    state = services.load_state(match)
    client.force_login(users[0])
    table = analyse(client, position_of(client.get(f"/matches/{match.public_id}/analyse/")))["table"]
    seen = view_for(state, 0)
    assert table["round"] == seen["round"]
    for mine, theirs in zip(table["seats"], seen["players"]):
        assert mine["vp"] is not None and mine["guild"] == theirs["guild_advancements"]
        assert [s["excavated"] for s in mine["mat"]] == [s["index"] % 4 == 0 or s["cave_card"] is not None
                                                          for s in theirs["mat"]]
        assert mine["markers"] == theirs["guild_markers"] and mine["objectives"] == theirs["objective_places"]


def test_an_unknown_match_is_a_404(client, catalogue):
    assert client.get("/matches/999999/analyse/").status_code == 404


@pytest.mark.parametrize("seed", range(30))
def test_analyse_from_here_never_refuses_what_a_seat_sees(catalogue, seed):
    """The unseen parts are samples, dealt only after every card in sight is placed: a face-down tucked card sampled
    before the seat's own hand or the display could take one of their cards, and the board then refused its own
    position ("that card is not in this game")."""
    import random

    from game.analysis import board
    from game.analysis.from_view import position_from_view
    from game.checker.services import current_cards
    from game.engine.state import GameState

    cards = current_cards()
    rng = random.Random(seed)
    st = GameState.new(cards.cat, players=2 + seed % 3, seed=seed, academy=bool(seed % 2))
    for _ in range(60 + 7 * seed):
        if st.pending is None:
            break
        st.apply(rng.choice(st.legal_options()))
    seat = seed % len(st.players)
    view = view_for(st, seat)
    rebuilt = board.read(cards, position_from_view(cards.cat, view, seed=seed))
    again = view_for(rebuilt, seat)
    assert again["players"][seat]["hand"] == view["players"][seat]["hand"]
    assert again["display"] == view["display"]
    for mine, theirs in zip(again["players"], view["players"]):
        assert [s["tucked"] for s in mine["mat"]] == [s["tucked"] for s in theirs["mat"]]
