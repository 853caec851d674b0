"""Time per move: the deadline sweep forfeits a seat or hands it to a bot, as chosen when the match was opened; bots
and departed seats move through the same idempotent path; reminders go out once."""
from datetime import timedelta

import pytest
from django.utils import timezone

from game.matches import services
from game.models import Match, MatchDecision, MatchSeat

from .conftest import later, pending, snapshot


def two_player(alice, bob, **options):
    match = services.create_match(alice, players=2, **options)
    services.join_match(match.pk, bob)
    return Match.objects.get(pk=match.pk)


def three_player(alice, bob, carol, **options):
    match = services.create_match(alice, players=3, **options)
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    return Match.objects.get(pk=match.pk)


def test_a_started_match_gives_the_seat_to_move_its_days(catalogue, alice, bob):
    before = timezone.now()
    match = two_player(alice, bob, days_per_move=7)
    assert match.to_move == pending(match)[0]
    assert before + timedelta(days=7) <= match.deadline <= timezone.now() + timedelta(days=7)


@pytest.mark.parametrize("field, value", [
    ("days_per_move", 2), ("days_per_move", "3"), ("days_per_move", True), ("days_per_move", None),
    ("on_timeout", "pass"), ("on_timeout", 1), ("private", "yes"),
])
def test_bad_time_control_is_refused_naming_the_field(api_as, catalogue, alice, field, value):
    response = api_as(alice).post("/api/matches/", {"players": 2, field: value}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Match.objects.exists()


def test_lobby_form_refuses_a_bad_time_control(client, catalogue, alice):
    client.force_login(alice)
    response = client.post("/matches/", {"players": "2", "days_per_move": "5", "on_timeout": "forfeit"})
    assert response.status_code == 400
    assert "days_per_move" in response.content.decode()
    assert not Match.objects.exists()


def test_the_sweep_does_nothing_before_the_deadline(catalogue, alice, bob):
    match = two_player(alice, bob)
    before = snapshot(match.pk)
    services.sweep(Match.objects.get(pk=match.pk).deadline - timedelta(seconds=1))
    assert snapshot(match.pk) == before


def test_timeout_forfeits_the_seat_and_ends_a_two_player_match(catalogue, alice, bob):
    match = two_player(alice, bob, on_timeout="forfeit")
    late = match.seats.get(seat=match.to_move)
    services.sweep(later(match))
    match = Match.objects.get(pk=match.pk)
    late.refresh_from_db()
    assert late.out == MatchSeat.Out.TIMEOUT
    assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.LAST_STANDING
    assert match.places[late.seat] == 2 and match.places[1 - late.seat] == 1
    assert match.deadline is None and match.decisions.count() == 0


def test_timeout_forfeit_in_a_bigger_match_leaves_the_seat_passing(catalogue, alice, bob, carol):
    match = three_player(alice, bob, carol, on_timeout="forfeit")
    late = match.to_move
    moment = later(match)
    services.sweep(moment)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING
    assert match.seats.get(seat=late).out == MatchSeat.Out.TIMEOUT
    # The departed seat is still to move: its move is queued at once, and the sweep takes it should the queue lose it.
    assert match.to_move == late and match.deadline == moment + services.MACHINE_GRACE
    state = services.load_state(match)
    options = list(state.pending.options)
    services.sweep(later(match))
    first = MatchDecision.objects.get(match=match, number=1)
    assert first.seat == late and {"kind": first.kind, "args": first.args} in [o.to_dict() for o in options]
    expected = next((o for o in options if o.kind == "pass"), options[0])
    assert first.to_option() == expected.to_dict()


def test_timeout_hands_the_seat_to_a_bot_that_plays_legal_moves(catalogue, alice, bob):
    match = two_player(alice, bob, on_timeout="bot")
    late = match.to_move
    options = [o.to_dict() for o in services.load_state(match).pending.options]
    services.sweep(later(match))
    seat = MatchSeat.objects.get(match=match, seat=late)
    assert (seat.controller, seat.level, seat.out) == ("bot", "random", "")
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and match.version == 0
    # The bot's move comes after its short delay; the queue's delayed task and the sweep share one path.
    services.sweep(later(match))
    match = Match.objects.get(pk=match.pk)
    assert match.version == 1
    assert MatchDecision.objects.get(match=match, number=1).to_option() in options
    assert services.replay(match).to_json() == match.state


def test_a_seat_played_by_a_bot_refuses_its_person(api_as, catalogue, alice, bob):
    match = two_player(alice, bob, on_timeout="bot")
    late = match.seats.get(seat=match.to_move).user
    services.sweep(later(match))
    option = pending(match)[2][0]
    before = snapshot(match.pk)
    response = api_as(late).post(f"/api/matches/{match.public_id}/decisions/", {"version": 0, "option": option},
                                 format="json")
    assert response.status_code == 403
    assert snapshot(match.pk) == before


def test_bot_moves_are_idempotent_and_ignore_a_stale_version(catalogue, alice, bob):
    match = two_player(alice, bob, on_timeout="bot")
    bot = match.to_move
    services.sweep(later(match))
    made = services.machine_move(match.pk, 0)
    match = Match.objects.get(pk=match.pk)
    # One task plays the bot's whole run: every decision it stored is the bot's, and then the person is to move.
    assert made >= 1 and match.version == made
    assert set(match.decisions.values_list("seat", flat=True)) == {bot}
    assert match.to_move != bot
    # A duplicated or late task for version 0 does nothing now that the match has moved on.
    assert services.machine_move(match.pk, 0) == 0
    assert Match.objects.get(pk=match.pk).version == made


def test_a_machine_move_never_decides_for_a_person(catalogue, alice, bob):
    match = two_player(alice, bob)
    before = snapshot(match.pk)
    assert services.machine_move(match.pk, 0) == 0
    services.on_deadline(match.pk, 0)  # the deadline is days away: nothing happens
    assert snapshot(match.pk) == before


def test_a_deadline_acted_on_once_is_not_acted_on_again(catalogue, alice, bob, carol):
    match = three_player(alice, bob, carol)
    moment = later(match)
    services.on_deadline(match.pk, 0, moment)
    services.on_deadline(match.pk, 0, moment)  # a duplicated task: the seat is out already, the version unchanged
    assert MatchSeat.objects.filter(match=match).exclude(out="").count() == 1


def test_a_decision_restarts_the_clock_for_the_next_move(catalogue, alice, bob):
    match = two_player(alice, bob, days_per_move=1)
    seat, _, options = pending(match)
    first = match.deadline
    services.submit_decision(match.pk, match.seats.get(seat=seat).user, 0, options[0])
    assert Match.objects.get(pk=match.pk).deadline > first


def test_the_reminder_goes_out_once_when_a_quarter_of_the_time_is_left(catalogue, alice, bob, mailoutbox,
                                                                      django_capture_on_commit_callbacks):
    alice.email, bob.email = "alice@example.org", "bob@example.org"
    alice.save()
    bob.save()
    match = two_player(alice, bob, days_per_move=3)
    mover = match.seats.get(seat=match.to_move).user
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.sweep(match.deadline - timedelta(hours=18, seconds=1))  # more than a quarter of 3 days left
    assert mailoutbox == []
    with django_capture_on_commit_callbacks(execute=True):
        services.sweep(match.deadline - timedelta(hours=17))
        services.sweep(match.deadline - timedelta(hours=16))
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [mover.email] and "waits for you" in mailoutbox[0].subject
