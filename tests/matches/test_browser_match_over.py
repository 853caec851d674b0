"""The board of a match that is over, in headless Chromium: nothing on it can be pressed to move, and its log says
who left and why the match ended."""
import pytest

from game.matches import services
from game.models import Match

from .conftest import play_randomly
from .test_browser import by, text_of, wait_for
from .test_browser_async import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = ".match-option, .match-target, .match-pick, #turn-send"


def test_after_the_other_player_resigns_the_board_offers_no_move(open_browser, live_server, started, alice, bob):
    match = play_randomly(started.pk, 4, seed=3)  # past the setup: the player to move chooses an action
    mover, leaver = (alice, bob) if match.to_move == 0 else (bob, alice)
    desk = open_browser("1200,900")
    sign_in(desk, live_server.url, mover.username, f"/matches/{match.public_id}/")
    wait_for(desk, lambda d: d.find_elements(*by("#you .match-target")))  # lit while the match is played
    services.resign(match.pk, leaver)
    desk.execute_script("window.dispatchEvent(new Event('focus'))")
    wait_for(desk, lambda d: f"{leaver.username} resigned." in text_of(d, "#log"), timeout=30)
    assert "The match ended: every other player left." in text_of(desk, "#log")
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert desk.find_elements(*by("#you .match-space"))  # the board is still drawn
    assert not desk.find_elements(*by(LIVE))
    assert "The game is over" in text_of(desk, "#prompt-text")
