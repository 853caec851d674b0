"""Play now: one click from the home page starts a game against bots (or the Automa) and lands on the match; the
bots' moves are made by the machine-move task; bad input is refused naming the field and saves nothing."""
import random

import pytest

from game.matches import services
from game.matches.errors import InvalidInput
from game.models import Match, MatchSeat

from .conftest import later


def test_home_page_offers_play_now(client, catalogue):
    page = client.get("/").content.decode()
    assert 'id="play-automa"' in page and 'id="play-bots"' in page
    for level in ("random", "greedy", "strong"):
        assert f'value="{level}"' in page


def test_one_click_starts_a_game_against_two_bots_and_lands_on_it(client, catalogue, alice):
    client.force_login(alice)
    response = client.post("/play/", {"opponent": "bots", "bot_1": "greedy", "bot_2": "random", "bot_3": "none",
                                      "bot_4": "none"})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.public_id}/"
    assert (match.status, match.players, match.private, match.automa_level) == ("playing", 3, True, None)
    seats = list(match.seats.order_by("seat").values_list("user__username", "controller", "level"))
    assert seats == [("alice", "person", ""), (None, "bot", "greedy"), (None, "bot", "random")]
    assert client.get(response["Location"]).status_code == 200


def test_play_now_starts_a_visitors_game_at_once_as_a_guest(client, catalogue):
    response = client.post("/play/", {"opponent": "bots", "bot_1": "greedy"})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.public_id}/"
    assert match.seats.get(seat=0).user.username.startswith("guest-")  # tests/matches/test_guests.py: the rest


@pytest.mark.parametrize("form, field", [
    ({"opponent": "bots", "bot_1": "grandmaster"}, "bot_levels"),
    ({"opponent": "bots", "bot_1": "none", "bot_2": "none"}, "bot_levels"),
    ({"opponent": "automa", "automa_level": "7"}, "automa_level"),
    ({"opponent": "automa", "automa_level": "two"}, "automa_level"),
    ({"opponent": "everyone"}, "opponent"),
])
def test_play_now_form_refuses_bad_input_naming_the_field(client, catalogue, alice, form, field):
    client.force_login(alice)
    response = client.post("/play/", form)
    assert response.status_code == 400
    error = response.content.decode().split('id="play-error">')[1].split("</p>")[0]
    assert error.startswith(f"{field}:")
    assert not Match.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"opponent": "bots", "bot_levels": ["greedy"] * 5}, "bot_levels"),
    ({"opponent": "bots", "bot_levels": []}, "bot_levels"),
    ({"opponent": "bots", "bot_levels": "greedy"}, "bot_levels"),
    ({"opponent": "bots", "bot_levels": ["greedy", 3]}, "bot_levels"),
    ({"opponent": "automa", "automa_level": 0}, "automa_level"),
    ({"opponent": "automa", "automa_level": 1, "ravel": "yes"}, "ravel"),
    ({"opponent": "bots", "bot_levels": ["greedy"], "academy": 1}, "academy"),
    ({"opponent": "bots", "bot_levels": ["greedy"], "seed": 4}, "seed"),
])
def test_play_now_api_refuses_bad_input_naming_the_field(api_as, catalogue, alice, body, field):
    response = api_as(alice).post("/api/matches/play-now/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Match.objects.exists()


def test_play_now_api_starts_a_game_against_four_bots(api_as, catalogue, alice):
    response = api_as(alice).post("/api/matches/play-now/", {"opponent": "bots", "bot_levels": ["random"] * 4},
                                  format="json")
    assert response.status_code == 201
    match = Match.objects.get()
    assert match.players == 5 and match.seats.filter(controller="bot").count() == 4


def play_against_bots(match_id, person, seed):
    """The person answers at random; every bot move is the machine-move task's, as the queue would run it."""
    rng = random.Random(seed)
    for _ in range(5000):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            return match
        state = services.load_state(match)
        seat = match.seats.get(seat=state.pending.player)
        if seat.by_machine:
            assert services.machine_move(match_id, match.version)
        else:
            option = rng.choice(state.legal_options())
            services.submit_decision(match_id, person, match.version, option.to_dict())
    raise AssertionError("the game did not end")


def test_a_person_plays_a_whole_game_against_random_bots(catalogue, alice):
    match = services.play_now(alice, opponent="bots", bot_levels=["random", "random"])
    match = play_against_bots(match.pk, alice, seed=3)
    assert match.status == Match.Status.FINISHED and sorted(match.places) in ([1, 2, 3], [1, 1, 2], [1, 2, 2],
                                                                              [1, 1, 1], [1, 1, 3])
    assert services.replay(match).to_json() == match.state
    assert match.decisions.filter(seat__in=[1, 2]).count() > 20


def test_a_greedy_bot_moves_through_the_queue_task_and_ignores_a_stale_version(catalogue, alice):
    match = services.play_now(alice, opponent="bots", bot_levels=["greedy"])
    state = services.load_state(match)
    # Setup: each player chooses cards and resources; play until the bot is to move.
    rng = random.Random(1)
    while state.pending.player == 0:
        services.submit_decision(match.pk, alice, match.version, rng.choice(state.legal_options()).to_dict())
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
    assert not services.machine_move(match.pk, match.version - 1)
    made = services.machine_move(match.pk, match.version)
    # The task plays the bot's whole run of decisions, then hands the move back to the person.
    after = Match.objects.get(pk=match.pk)
    mine = after.decisions.filter(number__gt=match.version)
    assert made >= 1 and after.version == match.version + made
    assert set(mine.values_list("seat", flat=True)) == {1} and after.to_move == 0


def test_a_timed_out_seat_is_played_by_the_level_chosen_for_the_match(catalogue, alice, bob):
    match = services.create_match(alice, players=2, on_timeout="bot", timeout_level="strong")
    services.join_match(match.pk, bob)
    match = Match.objects.get(pk=match.pk)
    services.on_deadline(match.pk, match.version, later(match, 10))
    seat = MatchSeat.objects.get(match=match, seat=match.to_move)
    assert (seat.controller, seat.level) == ("bot", "strong")


def test_an_unknown_timeout_level_is_refused_naming_the_field(api_as, catalogue, alice):
    response = api_as(alice).post("/api/matches/", {"players": 2, "timeout_level": "grandmaster"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "timeout_level"
    with pytest.raises(InvalidInput) as caught:
        services.create_match(alice, timeout_level=3)
    assert caught.value.field == "timeout_level"
    assert not Match.objects.exists()


def test_one_click_starts_a_solo_game_against_the_automa(client, catalogue, alice):
    client.force_login(alice)
    response = client.post("/play/", {"opponent": "automa", "automa_level": "2", "ravel": "on"})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.public_id}/"
    assert (match.players, match.automa_level, match.ravel, match.status) == (1, 2, True, "playing")
    assert services.load_state(match).options["automa"] == {"level": 2, "ravel": True}


def test_a_solo_game_is_played_to_the_end_and_replays(catalogue, alice):
    match = services.play_now(alice, opponent="automa", automa_level=1)
    match = play_against_bots(match.pk, alice, seed=2)
    assert match.status == Match.Status.FINISHED
    assert services.replay(match).to_json() == match.state
