"""Time controls (game/matches/clock.py): a time bank with an increment and a cap, timed out by the usual sweep; and
vacation days (game/matches/vacation.py) that pause the clocks of a player's matches, refunded when they come back
early, within a yearly allowance. Every new input refuses a bad value naming its field."""
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from game.matches import clock, services, vacation
from game.matches.errors import InvalidInput, MatchClosed
from game.models import Match, MatchSeat, Vacation

from .conftest import later, user_at

DAY = timedelta(days=1)


def two_player(alice, bob, **options):
    match = services.create_match(alice, players=2, **options)
    services.join_match(match.pk, bob)
    return Match.objects.get(pk=match.pk)


def bank_match(alice, bob, bank_days=7, increment_days=1, **options):
    return two_player(alice, bob, time_control="bank", bank_days=bank_days, increment_days=increment_days, **options)


def close(a, b, slack=timedelta(seconds=30)):
    return abs(a - b) <= slack


def play_out_the_turn(match, seed=1):
    """Random legal decisions of the seat to move until another seat is to move; answers (mover, match)."""
    rng = random.Random(seed)
    match = Match.objects.get(pk=match.pk)
    mover = match.to_move
    for _ in range(200):
        state = services.load_state(match)
        option = rng.choice(state.legal_options())
        services.submit_decision(match.pk, user_at(match, mover), match.version, option.to_dict())
        match = Match.objects.get(pk=match.pk)
        if match.to_move != mover:
            return mover, match
    raise AssertionError("the turn never passed")


# -- The time bank -----------------------------------------------------------------------------------------------

def test_a_bank_match_gives_each_seat_its_bank_and_the_first_its_deadline(catalogue, alice, bob):
    before = timezone.now()
    match = bank_match(alice, bob, bank_days=7, increment_days=1)
    assert (match.time_control, match.bank_days, match.increment_days) == ("bank", 7, 1)
    assert match.banks == [7 * 86400, 7 * 86400]
    assert before + 7 * DAY <= match.deadline <= timezone.now() + 7 * DAY


def test_the_clock_runs_on_through_a_turn_and_the_mover_keeps_what_was_left_plus_the_increment(catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=7, increment_days=1)
    # five of the seven days spent: two are left when the turn ends
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + 2 * DAY)
    mover, match = play_out_the_turn(match)
    assert abs(match.banks[mover] - (3 * 86400)) < 60  # 2 days left + 1 added
    other = match.to_move
    assert match.banks[other] == 7 * 86400
    assert close(match.deadline, timezone.now() + 7 * DAY)


def test_a_decision_within_the_turn_does_not_restart_the_bank(catalogue, alice, bob):
    match = bank_match(alice, bob)
    deadline = timezone.now() + 2 * DAY
    Match.objects.filter(pk=match.pk).update(deadline=deadline)
    match = Match.objects.get(pk=match.pk)
    rng = random.Random(3)
    mover = match.to_move
    while True:
        state = services.load_state(match)
        option = rng.choice(state.legal_options())
        services.submit_decision(match.pk, user_at(match, mover), match.version, option.to_dict())
        match = Match.objects.get(pk=match.pk)
        if match.to_move != mover:
            break
        assert match.deadline == deadline  # still the same turn: the same deadline


def test_the_bank_is_capped_at_twice_its_start(catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=7, increment_days=3)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + 13 * DAY)
    mover, match = play_out_the_turn(match)
    assert match.banks[mover] == clock.bank_cap(match) == 14 * 86400


def test_a_bank_that_runs_out_is_timed_out_by_the_sweep(catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=1, increment_days=0, on_timeout="forfeit")
    late = match.to_move
    services.sweep(match.deadline - timedelta(seconds=1))
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    services.sweep(later(match))
    match = Match.objects.get(pk=match.pk)
    assert match.seats.get(seat=late).out == MatchSeat.Out.TIMEOUT
    assert match.status == Match.Status.FINISHED


def test_a_rematch_keeps_the_time_control(catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=5, increment_days=2)
    services.sweep(later(match))  # a forfeit ends it
    again = services.rematch(match.pk, alice)
    assert (again.time_control, again.bank_days, again.increment_days) == ("bank", 5, 2)


def test_the_api_and_pages_show_the_time_control_and_the_banks(api_as, client, catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=7, increment_days=1)
    body = api_as(alice).get(f"/api/matches/{match.public_id}/").json()
    assert body["clock"]["time_control"] == "bank" and body["clock"]["bank_cap_days"] == 14
    assert body["clock"]["banks"][1 - match.to_move] == 7 * 86400
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "7 days in the bank + 1 a turn" in page and 'id="match-banks"' in page and "7 days 0 h" in page
    seek = services.create_match(bob, time_control="bank", bank_days=3, increment_days=0)
    lobby = client.get("/play/").content.decode()
    assert "3 days in the bank + 0 a turn" in lobby
    assert any(s["clock_text"] == "3 days in the bank + 0 a turn" for s in
               api_as(alice).get("/api/lobby/").json()["seeks"] if s["id"] == seek.public_id)


@pytest.mark.parametrize("body, field", [
    ({"time_control": "fischer"}, "time_control"),
    ({"time_control": True}, "time_control"),
    ({"time_control": "bank"}, "bank_days"),
    ({"time_control": "bank", "bank_days": 0}, "bank_days"),
    ({"time_control": "bank", "bank_days": 31}, "bank_days"),
    ({"time_control": "bank", "bank_days": "7"}, "bank_days"),
    ({"time_control": "bank", "bank_days": 7, "increment_days": 8}, "increment_days"),
    ({"time_control": "bank", "bank_days": 7, "increment_days": -1}, "increment_days"),
])
def test_the_api_refuses_a_bad_time_control_naming_the_field(api_as, catalogue, alice, body, field):
    response = api_as(alice).post("/api/matches/", {"players": 2, **body}, format="json")
    assert response.status_code == 400 and response.json()["field"] == field
    assert not Match.objects.exists()


@pytest.mark.parametrize("url", ["/matches/", "/play/seek/"])
@pytest.mark.parametrize("form, field", [
    ({"time_control": "fischer"}, "time_control"),
    ({"time_control": "bank", "bank_days": "lots"}, "bank_days"),
    ({"time_control": "bank", "bank_days": "7", "increment_days": "9"}, "increment_days"),
])
def test_the_forms_refuse_a_bad_time_control_naming_the_field(client, catalogue, alice, url, form, field):
    client.force_login(alice)
    response = client.post(url, {"players": "2", "days_per_move": "3", "on_timeout": "forfeit", **form})
    assert response.status_code == 400
    assert field in response.content.decode()
    assert not Match.objects.exists()


def test_a_bank_from_the_seek_form_opens_a_bank_match(client, catalogue, alice):
    client.force_login(alice)
    response = client.post("/play/seek/", {"players": "2", "time_control": "bank", "bank_days": "10",
                                           "increment_days": "2"})
    assert response.status_code == 302
    assert Match.objects.values_list("time_control", "bank_days", "increment_days").get() == ("bank", 10, 2)


# -- Vacation ----------------------------------------------------------------------------------------------------

def test_vacation_pushes_the_deadline_where_it_is_your_move(catalogue, alice, bob):
    match = two_player(alice, bob, days_per_move=3)
    away = user_at(match, match.to_move)
    deadline = match.deadline
    now = timezone.now()
    taken = vacation.start(away, 5, now=now)
    assert taken.until == now + 5 * DAY
    match = Match.objects.get(pk=match.pk)
    assert match.deadline == deadline + 5 * DAY
    assert match.seats.get(user=away).away_until == taken.until
    services.sweep(deadline + timedelta(seconds=1))  # the old deadline passes: nothing happens
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


def test_a_turn_that_comes_during_vacation_starts_its_clock_when_it_ends(catalogue, alice, bob):
    match = two_player(alice, bob, days_per_move=3)
    waiting = user_at(match, 1 - match.to_move)
    taken = vacation.start(waiting, 4)
    _, match = play_out_the_turn(match)
    assert user_at(match, match.to_move) == waiting
    assert close(match.deadline, taken.until + 3 * DAY)


def test_a_bank_is_not_spent_by_decisions_made_on_vacation(catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=7, increment_days=1)
    away = user_at(match, match.to_move)
    vacation.start(away, 3)
    mover, match = play_out_the_turn(match)
    assert abs(match.banks[mover] - 8 * 86400) < 60  # the whole bank plus the increment


def test_coming_back_early_refunds_the_days_not_begun_and_restarts_the_clock(catalogue, alice, bob):
    match = two_player(alice, bob, days_per_move=3)
    away = user_at(match, match.to_move)
    deadline = match.deadline
    start = timezone.now()
    vacation.start(away, 10, now=start)
    assert vacation.days_left(away) == vacation.ALLOWANCE - 10
    back = start + timedelta(days=2, hours=3)
    vacation.end(away, now=back)
    match = Match.objects.get(pk=match.pk)
    # the clock stood still from the start to the return
    assert match.deadline == deadline + (back - start)
    assert match.seats.get(user=away).away_until is None
    assert vacation.days_used(away) == 3  # two days and a begun third
    assert vacation.days_left(away) == vacation.ALLOWANCE - 3
    with pytest.raises(MatchClosed):
        vacation.end(away, now=back)


def test_the_yearly_allowance_cannot_be_exceeded(catalogue, alice):
    with pytest.raises(InvalidInput) as refused:
        vacation.start(alice, vacation.ALLOWANCE + 1)
    assert refused.value.field == "days"
    now = timezone.now()
    vacation.start(alice, 25, now=now)
    with pytest.raises(MatchClosed):  # one vacation at a time
        vacation.start(alice, 1, now=now + DAY)
    Vacation.objects.filter(user=alice).update(until=now)  # it ran its course (still this year's 25 days)
    with pytest.raises(InvalidInput) as refused:
        vacation.start(alice, 6, now=now + timedelta(seconds=1))
    assert refused.value.field == "days" and "5" in str(refused.value)
    vacation.start(alice, 5, now=now + timedelta(seconds=1))
    assert vacation.days_left(alice, now) == 0


def test_a_match_page_says_who_is_on_vacation(client, catalogue, alice, bob):
    match = two_player(alice, bob)
    taken = vacation.start(bob, 6)
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert f"bob is on vacation until {taken.until:%Y-%m-%d %H:%M} UTC" in page


def test_a_match_starting_during_a_vacation_waits_for_its_end(catalogue, alice, bob):
    taken = vacation.start(bob, 2)
    match = two_player(alice, bob, days_per_move=1)
    assert match.seats.get(user=bob).away_until == taken.until
    if user_at(match, match.to_move) == bob:
        assert close(match.deadline, taken.until + DAY)


@pytest.mark.parametrize("body, field", [
    ({}, "days"), ({"days": "3"}, "days"), ({"days": 0}, "days"), ({"days": 31}, "days"),
    ({"days": True}, "days"), ({"days": 3, "until": "2027-01-01"}, "until"),
])
def test_the_vacation_api_refuses_bad_input_naming_the_field(api_as, catalogue, alice, body, field):
    response = api_as(alice).post("/api/vacation/", body, format="json")
    assert response.status_code == 400 and response.json()["field"] == field
    assert not Vacation.objects.exists()


def test_the_vacation_api_starts_and_ends(api_as, catalogue, alice):
    api = api_as(alice)
    assert api.get("/api/vacation/").json()["left"] == vacation.ALLOWANCE
    started = api.post("/api/vacation/", {"days": 4}, format="json")
    assert started.status_code == 201 and started.json()["on_vacation"] and started.json()["used"] == 4
    assert api.post("/api/vacation/", {"days": 1}, format="json").status_code == 409
    back = api.delete("/api/vacation/")
    assert back.status_code == 200 and not back.json()["on_vacation"] and back.json()["used"] == 1
    assert api.delete("/api/vacation/").status_code == 409


@pytest.mark.parametrize("days", ["", "three", "0", "99"])
def test_the_vacation_form_refuses_bad_days(client, catalogue, alice, days):
    client.force_login(alice)
    response = client.post("/matches/vacation/", {"days": days})
    assert response.status_code == 400 and 'id="days-error"' in response.content.decode()
    assert not Vacation.objects.exists()


def test_the_vacation_form_starts_and_ends(client, catalogue, alice):
    client.force_login(alice)
    assert client.post("/matches/vacation/", {"days": "3"}).status_code == 302
    assert "You are on vacation until" in client.get("/matches/vacation/").content.decode()
    assert client.post("/matches/vacation/", {"end": "1"}).status_code == 302
    assert vacation.current(alice) is None and vacation.days_used(alice) == 1


def test_a_bank_reminder_goes_when_a_quarter_of_the_bank_is_left(catalogue, alice, bob):
    match = bank_match(alice, bob, bank_days=4, increment_days=0)
    services.sweep(match.deadline - timedelta(days=1, hours=1))
    assert not Match.objects.get(pk=match.pk).reminded
    services.sweep(match.deadline - timedelta(hours=23))
    assert Match.objects.get(pk=match.pk).reminded
