"""The match services: seats and starting, turn order, and every refusal leaving the match untouched."""
import pytest

from cardsite.api_errors import StaleVersion
from game.engine.decisions import IllegalDecision
from game.matches import services
from game.matches.errors import InvalidInput, MatchClosed, NotCreator, NotSeated, NotYourTurn
from game.models import Match

from .conftest import pending, snapshot, user_at


def test_create_match_seats_its_creator_and_waits_for_players(catalogue, alice):
    match = services.create_match(alice, players=3, academy=True)
    assert match.status == Match.Status.OPEN
    assert match.updated is True  # the updated printings come with the expansion unless asked otherwise
    assert list(match.seats.values_list("seat", "user__username")) == [(0, "alice")]
    assert match.state is None


@pytest.mark.parametrize("players", [1, 6, "3", True, None, 2.5])
def test_create_match_refuses_a_bad_player_count(catalogue, alice, players):
    with pytest.raises(InvalidInput) as err:
        services.create_match(alice, players=players)
    assert err.value.field == "players"
    assert not Match.objects.exists()


def test_create_match_refuses_a_flag_that_is_not_true_or_false(catalogue, alice):
    with pytest.raises(InvalidInput) as err:
        services.create_match(alice, players=2, academy="yes")
    assert err.value.field == "academy"
    assert not Match.objects.exists()


def test_match_starts_when_the_last_seat_is_taken(catalogue, alice, bob, carol):
    match = services.create_match(alice, players=3)
    services.join_match(match.pk, bob)
    assert Match.objects.get(pk=match.pk).status == Match.Status.OPEN
    services.join_match(match.pk, carol)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING
    assert len(match.state["players"]) == 3
    assert list(match.seats.values_list("user__username", flat=True)) == ["alice", "bob", "carol"]


def test_joining_twice_or_a_full_match_is_refused(started, alice, carol):
    before = snapshot(started.pk)
    with pytest.raises(MatchClosed):
        services.join_match(started.pk, carol)
    assert snapshot(started.pk) == before


def test_a_player_cannot_take_two_seats(catalogue, alice):
    match = services.create_match(alice, players=2)
    with pytest.raises(MatchClosed):
        services.join_match(match.pk, alice)
    assert match.seats.count() == 1


def test_creator_may_start_early_with_those_seated(catalogue, alice, bob):
    match = services.create_match(alice, players=4)
    services.join_match(match.pk, bob)
    services.start_match(match.pk, alice)
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.players, len(match.state["players"])) == (Match.Status.PLAYING, 2, 2)


def test_only_the_creator_starts_and_never_alone(catalogue, alice, bob):
    match = services.create_match(alice, players=3)
    with pytest.raises(MatchClosed):
        services.start_match(match.pk, alice)
    services.join_match(match.pk, bob)
    with pytest.raises(NotCreator):
        services.start_match(match.pk, bob)
    assert Match.objects.get(pk=match.pk).status == Match.Status.OPEN


def test_setup_decisions_go_seat_by_seat_then_turns_follow_the_start_player(started):
    seen = []
    while True:
        match = Match.objects.get(pk=started.pk)
        seat, kind, options = pending(match)
        if kind == "main_action":
            break
        seen.append((seat, kind))
        services.submit_decision(match.pk, user_at(match, seat), match.version, options[0])
    assert seen == [(0, "setup_keep"), (0, "setup_resources"), (1, "setup_keep"), (1, "setup_resources")]
    match = Match.objects.get(pk=started.pk)
    assert match.version == 4
    assert pending(match)[0] == match.state["start"]
    # Each pass hands the turn to the next seat round the table.
    first = match.state["start"]
    services.submit_decision(match.pk, user_at(match, first), 4, {"kind": "pass", "args": []})
    match = Match.objects.get(pk=started.pk)
    assert pending(match)[0] == 1 - first


def test_a_decision_is_logged_with_its_words_and_moves_the_version(started, alice):
    seat, kind, options = pending(started)
    words = services.load_state(started).pending.prompt
    match = services.submit_decision(started.pk, alice, 0, options[0])
    assert match.version == 1
    decision = match.decisions.get()
    assert (decision.number, decision.seat, decision.kind, decision.args) == (1, 0, options[0]["kind"],
                                                                            options[0]["args"])
    assert decision.prompt == words  # words-test: the log keeps the question's words
    assert decision.label.startswith("Discard ")


def test_stale_version_is_refused_and_changes_nothing(started, alice):
    options = pending(started)[2]
    services.submit_decision(started.pk, alice, 0, options[0])
    before = snapshot(started.pk)
    with pytest.raises(StaleVersion):
        services.submit_decision(started.pk, alice, 0, pending(started)[2][0])
    assert snapshot(started.pk) == before


def test_acting_out_of_turn_is_refused(started, bob):
    before = snapshot(started.pk)
    with pytest.raises(NotYourTurn) as err:
        services.submit_decision(started.pk, bob, 0, pending(started)[2][0])
    assert "alice's turn" in str(err.value)
    assert snapshot(started.pk) == before


def test_a_user_without_a_seat_cannot_decide(started, carol):
    before = snapshot(started.pk)
    with pytest.raises(NotSeated):
        services.submit_decision(started.pk, carol, 0, pending(started)[2][0])
    assert snapshot(started.pk) == before


def test_an_illegal_option_gets_the_engines_reason_and_changes_nothing(started, alice):
    before = snapshot(started.pk)
    with pytest.raises(IllegalDecision) as err:
        services.submit_decision(started.pk, alice, 0, {"kind": "entice", "args": [0, 0]})
    assert "You tried" in str(err.value)
    assert snapshot(started.pk) == before


@pytest.mark.parametrize("option", [
    "pass", None, [], {"args": []}, {"kind": 3}, {"kind": "pass", "args": "meat"},
    {"kind": "pass", "args": [True]}, {"kind": "pass", "args": [[1]]}, {"kind": "pass", "what": 1},
])
def test_malformed_options_name_the_option_field_and_change_nothing(started, alice, option):
    before = snapshot(started.pk)
    with pytest.raises(InvalidInput) as err:
        services.submit_decision(started.pk, alice, 0, option)
    assert err.value.field == "option"
    assert snapshot(started.pk) == before


@pytest.mark.parametrize("version", ["0", None, -1, 1.0, False])
def test_a_version_that_is_not_a_whole_number_is_refused(started, alice, version):
    before = snapshot(started.pk)
    with pytest.raises(InvalidInput) as err:
        services.submit_decision(started.pk, alice, version, pending(started)[2][0])
    assert err.value.field == "version"
    assert snapshot(started.pk) == before


def test_deciding_before_the_match_starts_is_refused(catalogue, alice):
    match = services.create_match(alice, players=2)
    with pytest.raises(MatchClosed):
        services.submit_decision(match.pk, alice, 0, {"kind": "pass", "args": []})
    assert not match.decisions.exists()


def test_a_catalogue_that_cannot_set_a_game_up_is_refused_before_anything_is_saved(catalogue, alice):
    from cardsite.catalogue.models import BoardFact
    from game.matches.errors import CatalogueNotReady

    BoardFact.objects.filter(key="setup").delete()
    with pytest.raises(CatalogueNotReady) as err:
        services.create_match(alice, players=2)
    assert "setup" in str(err.value)
    assert not Match.objects.exists()
