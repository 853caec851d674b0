"""Take-backs and abandoning through the pages: two people in a 2-player match, each in a Chromium window. One asks
to take back their turn and the other accepts: the board is back as it was and the first player moves again. One
offers to abandon and the other accepts: both pages show the match ended as abandoned."""
import random

import pytest
from django.contrib.auth import get_user_model

from game.matches import services
from game.models import Match

from .test_browser import PASSWORD, by, text_of, wait_for
from .test_browser_game import my_turn, sign_in, take_turn, tap
from .test_proposals import through_setup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(open_browser, live_server, catalogue):
    """(match at the start player's first main action, {seat: signed-in driver}, base URL)."""
    ann, ben = (get_user_model().objects.create_user(name, password=PASSWORD) for name in ("ann", "ben"))
    match = services.create_match(ann, players=2)
    services.join_match(match.pk, ben)
    match = through_setup(Match.objects.get(pk=match.pk))
    drivers = {}
    for seat, name in ((0, "ann"), (1, "ben")):
        driver = open_browser("1300,950")
        sign_in(driver, live_server.url, name)
        driver.get(f"{live_server.url}/matches/{match.public_id}/")
        wait_for(driver, lambda d: d.find_elements(*by("#you .match-space")))
        drivers[seat] = driver
    return match, drivers, live_server.url


def ask(driver, button):
    tap(driver, "#proposals summary")
    tap(driver, button)


def test_a_take_back_asked_and_accepted_puts_the_board_back(table):
    match, drivers, _ = table
    seat = match.to_move
    asker, other = drivers[seat], drivers[1 - seat]
    before = (match.version, match.state)
    wait_for(asker, my_turn)
    take_turn(asker, random.Random(3), set())
    wait_for(asker, lambda d: Match.objects.get(pk=match.pk).to_move != seat or Match.objects.get(pk=match.pk)
             .version > before[0])
    played = Match.objects.get(pk=match.pk)
    assert played.version > before[0]

    ask(asker, "#takeback-button")
    wait_for(asker, lambda d: d.find_elements(*by("#proposal-cancel")))
    # The other page hears of it without a reload by hand, and accepts.
    wait_for(other, lambda d: d.find_elements(*by("#proposal-accept")), timeout=30)
    assert "take back" in text_of(other, "#proposal-text")
    tap(other, "#proposal-accept")
    wait_for(other, lambda d: not d.find_elements(*by("#proposal-accept")))

    match = Match.objects.get(pk=match.pk)
    assert (match.version, match.state) == before and match.to_move == seat
    assert services.replay(match).to_json() == match.state
    # The asker's page is back before the move, says so in the log, and offers the turn again.
    wait_for(asker, lambda d: not d.find_elements(*by("#proposal-cancel")), timeout=30)
    wait_for(asker, my_turn, timeout=30)
    wait_for(asker, lambda d: "took back their last move" in text_of(d, "#log"))
    take_turn(asker, random.Random(4), set())
    assert Match.objects.get(pk=match.pk).version > before[0]


def test_an_abandon_offer_accepted_ends_the_match_on_both_pages(table):
    match, drivers, _ = table
    ask(drivers[0], "#abandon-button")
    wait_for(drivers[1], lambda d: d.find_elements(*by("#proposal-accept")), timeout=30)
    assert "abandon" in text_of(drivers[1], "#proposal-text")
    tap(drivers[1], "#proposal-accept")
    for driver in drivers.values():
        wait_for(driver, lambda d: d.find_elements(*by("#ending-title")), timeout=30)
        assert "abandoned" in text_of(driver, "#ending-title")
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.ending) == ("finished", "abandoned")
