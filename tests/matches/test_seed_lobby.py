"""`manage.py seed_lobby` (run by `dev.py serve`): a fresh site's lobby holds seeks whose first seat a bot plays, so a
newcomer who joins one is answered at once."""
import pytest
from django.core.management import call_command

from game.matches import services
from game.models import Match, MatchSeat

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fresh_lobby_gets_bot_seeks_once_and_a_newcomer_who_joins_is_answered(catalogue, make_user):
    call_command("seed_lobby")
    seeks = Match.objects.filter(status=Match.Status.OPEN, private=False)
    assert seeks.count() == 3
    assert all(s.controller == MatchSeat.Controller.BOT for s in MatchSeat.objects.filter(match__in=seeks))
    call_command("seed_lobby")  # a seek is open: nothing more
    assert Match.objects.count() == 3

    two = seeks.filter(players=2, academy=False).get()
    dan = make_user("dan")
    services.join_match(two.pk, dan)
    two.refresh_from_db()
    human = two.seats.get(user=dan).seat
    assert two.status == Match.Status.PLAYING and two.to_move == human  # the bot's seat has answered already
    assert not two.rated


def test_the_holder_account_cannot_sign_in(catalogue, client):
    call_command("seed_lobby")
    holder = Match.objects.first().creator
    assert not holder.has_usable_password()
    assert not client.login(username=holder.username, password="")
