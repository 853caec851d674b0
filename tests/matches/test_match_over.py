"""A match that is over (resigned, timed out, aborted, every other player gone, scored): its data offers no move to
anyone, and its story says who left and why it ended."""
from game.matches import present, services
from game.models import Match

from .conftest import later, play_randomly


def log_lines(match, user):
    data = present.match_json(Match.objects.get(pk=match.pk), user)
    return data, [line["text"] for group in data["log"] for line in group["lines"]]


def to_main_action(match):
    """Past the setup choices (4 of them in a 2-player match), so resigning, not aborting, is offered."""
    return play_randomly(match.pk, 4, seed=3)


def test_after_a_resignation_the_other_player_is_offered_no_move(started, alice, bob):
    match = to_main_action(started)
    mover = present.match_json(match, None)["to_move"]
    staying, leaving = (alice, bob) if mover == 0 else (bob, alice)
    services.resign(match.pk, leaving)
    data, lines = log_lines(match, staying)
    assert data["status"] == "finished" and data["view"]["pending"] is not None
    assert "options" not in data["view"]["pending"] and data["your_turn"] is False
    assert present.options_json(Match.objects.get(pk=match.pk), staying)["options"] == []
    assert lines[-2:] == [f"{leaving.username} resigned.", "The match ended: every other player left."]


def test_a_forfeit_on_time_is_told_as_such(started, alice, bob):
    late = started.seats.get(seat=started.to_move)
    services.sweep(later(started))
    _, lines = log_lines(started, alice)
    assert lines[-2:] == [f"{late.user.username} ran out of time and forfeited.",
                          "The match ended: every other player left."]


def test_an_aborted_match_says_so(started, alice, bob):
    services.abort_match(started.pk, bob)
    data, lines = log_lines(started, alice)
    assert lines[-1] == "The match was aborted before the first move."
    assert "options" not in (data["view"]["pending"] or {})


def test_a_scored_match_says_it_was_played_to_the_end(started, alice):
    match = play_randomly(started.pk, 5000, seed=11)
    assert match.ending == Match.Ending.SCORED
    _, lines = log_lines(match, alice)
    assert lines[-1] == "The match ended: the game was played to its end and scored."


def test_a_match_in_play_tells_no_ending(started, alice):
    _, lines = log_lines(started, alice)
    assert not any("The match ended" in line for line in lines)


def test_a_seat_handed_to_a_bot_is_told(catalogue, alice, bob):
    match = services.create_match(alice, players=2, on_timeout="bot")
    services.join_match(match.pk, bob)
    match = Match.objects.get(pk=match.pk)
    late = match.seats.get(seat=match.to_move).user
    services.sweep(later(match))
    _, lines = log_lines(match, alice)
    assert f"{late.username} ran out of time; a bot plays on for them." in lines
