"""Quick pairing at the same moment (game/matches/lobby.py): two players who press "Any 2-player game now" together
find each other in one match instead of each opening a seek that waits for someone."""
import pytest
from django.contrib.auth import get_user_model

from game.matches import lobby
from game.models import Match
from tests.races import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("round_", range(3))
def test_two_quick_pairings_at_once_meet_in_one_match(catalogue, round_):
    users = get_user_model().objects
    ann = users.create_user(f"ann{round_}", password="a-long-test-password")
    ben = users.create_user(f"ben{round_}", password="a-long-test-password")
    (first, first_joined), (second, second_joined) = at_once([lambda: lobby.quick_pair(ann),
                                                              lambda: lobby.quick_pair(ben)])
    assert first.pk == second.pk
    assert sorted([first_joined, second_joined]) == [False, True]
    match = Match.objects.get()
    assert match.status == Match.Status.PLAYING
    assert sorted(s.user.username for s in match.seats.all()) == sorted([ann.username, ben.username])
