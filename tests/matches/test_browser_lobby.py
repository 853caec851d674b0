"""The lobby in headless Chromium: one player opens a seek, another finds it at /play/ and joins with one click, both
land on the match, and a third person opens the game from the lobby's list of games to watch."""
import pytest

from game.models import Match
from tests.browser import click, css, wait_for, wait_for_path

from .test_browser_game import sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_find_each_other_in_the_lobby_and_a_spectator_watches(open_browser, live_server, catalogue,
                                                                          make_user):
    base = live_server.url
    ann, ben, cas = make_user("ann"), make_user("ben"), make_user("cas")
    first, second, third = open_browser("1200,900"), open_browser("390,844"), open_browser("1200,900")
    for driver, user in ((first, ann), (second, ben), (third, cas)):
        sign_in_as(driver, base, user)

    first.get(f"{base}/play/")
    click(first, css(first, "#open-seek-go")[0])  # a 2-player rated seek, as the form opens
    match = wait_for(first, lambda d: Match.objects.filter(creator=ann).first())
    wait_for_path(first, match.get_absolute_url())
    assert match.status == Match.Status.OPEN

    second.get(f"{base}/play/")
    join = wait_for(second, lambda d: css(d, f'[data-join="{match.public_id}"], [data-join="{match.pk}"]'))
    click(second, join[0])
    wait_for_path(second, match.get_absolute_url())
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert sorted(s.user.username for s in match.seats.all()) == ["ann", "ben"]
    wait_for(second, lambda d: css(d, "#match"))

    third.get(f"{base}/play/")
    watch = wait_for(third, lambda d: css(d, f'[data-watch="{match.public_id}"], [data-watch="{match.pk}"]'))
    click(third, watch[0])
    wait_for_path(third, match.get_absolute_url())
    wait_for(third, lambda d: css(d, "#match"))
    assert not css(third, "#match .match-option")  # a spectator is offered no move
