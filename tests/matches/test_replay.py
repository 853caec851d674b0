"""Replaying a match's log from its setup options and seed reproduces the stored snapshot."""
import pytest

from game.matches import services
from game.matches.errors import MatchClosed
from game.models import Match

from .conftest import play_randomly


def test_replaying_the_log_reproduces_the_snapshot(started):
    match = play_randomly(started.pk, 80, seed=3)
    assert match.version == match.decisions.count() > 10
    assert services.replay(match).to_json() == match.state


@pytest.mark.parametrize("seed", [1, 2])
def test_a_match_played_to_the_end_is_finished_and_replays_exactly(catalogue, alice, bob, carol, seed):
    match = services.create_match(alice, players=3, academy=seed == 2)
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    match = play_randomly(match.pk, 5000, seed=seed)
    assert match.status == Match.Status.FINISHED
    assert match.state["result"]["winners"]
    assert services.replay(match).to_json() == match.state
    with pytest.raises(MatchClosed):
        services.submit_decision(match.pk, alice, match.version, {"kind": "pass", "args": []})
