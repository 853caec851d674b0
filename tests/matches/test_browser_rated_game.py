"""A rated game from the lobby to the record, in headless Chromium: two players find each other at /play/, play a
rated 2-player game to its final score, and then both profiles and the 2-player leaderboard show their new
ratings; the game's record, downloaded from its page, is replayed on a database that no longer holds the game
(or its players) and gives the same final count."""
import random

import pytest
from django.contrib.auth import get_user_model

from game.models import Match, PlayerRating
from tests.browser import click, css, wait_for, wait_for_path

from .test_browser_game import my_turn, sign_in_as, take_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown_rating(driver, pool_name):
    """The rating a profile page shows for the pool named `pool_name` ("All games", "2 players"), as a number."""
    for heading in css(driver, "h3"):
        if heading.text.startswith(f"{pool_name}:"):
            return int(heading.find_element("css selector", ".rating").text)
    raise AssertionError(f"no {pool_name} rating on {driver.current_url}")


def test_a_rated_lobby_game_reaches_profiles_leaderboard_and_a_record(open_browser, live_server, catalogue,
                                                                     make_user):
    base = live_server.url
    ann, ben = make_user("ann"), make_user("ben")
    first, second = open_browser("1300,950"), open_browser("1200,900")
    for driver, user in ((first, ann), (second, ben)):
        sign_in_as(driver, base, user)

    # They find each other in the lobby: ann opens a rated 2-player seek, ben joins it with one click.
    first.get(f"{base}/play/")
    click(first, css(first, "#open-seek-go")[0])
    match = wait_for(first, lambda d: Match.objects.filter(creator=ann).first())
    assert match.rated
    wait_for_path(first, match.get_absolute_url())
    second.get(f"{base}/play/")
    join = wait_for(second, lambda d: css(d, f'[data-join="{match.public_id}"]'))
    click(second, join[0])
    wait_for_path(second, match.get_absolute_url())

    # The whole game, each turn chosen and confirmed on its player's page.
    drivers = {ann.pk: first, ben.pk: second}
    rng, ways = random.Random(8), set()
    for _ in range(600):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        driver = drivers[match.seats.get(seat=match.to_move).user_id]
        wait_for(driver, my_turn)
        take_turn(driver, rng, ways)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rated
    result = match.state["result"]

    # Rated when the last move committed: both profiles and the leaderboard show the new ratings.
    rows = wait_for(first, lambda d: PlayerRating.objects.filter(pool="2").count() == 2
                    and {r.user_id: r for r in PlayerRating.objects.filter(pool="2")})
    everything = {r.user_id: r for r in PlayerRating.objects.filter(pool="all")}
    winner = ann if match.places[0] < match.places[1] else ben
    if match.places[0] != match.places[1]:
        loser = ben if winner == ann else ann
        assert rows[winner.pk].rating > 1500 > rows[loser.pk].rating
    for driver in (first, second):
        for user in (ann, ben):
            driver.get(f"{base}/players/{user.username}/")
            assert shown_rating(driver, "2 players") == round(rows[user.pk].rating)
            assert shown_rating(driver, "All games") == round(everything[user.pk].rating)
            assert css(driver, f'#profile-recent a[href="{match.get_absolute_url()}"]')
            assert css(driver, '.rating-chart[data-pool="2"] svg polyline')  # the history: from 1500 to now
    first.get(f"{base}/leaderboards/?pool=2")
    board = {a.text: a.find_element("xpath", "../following-sibling::td[1]").text
             for a in css(first, '.leaderboard[data-who="people"] td a')}
    assert board == {"ann": str(round(rows[ann.pk].rating)), "ben": str(round(rows[ben.pk].rating))}
    click(first, [a for a in css(first, '.leaderboard[data-who="people"] td a') if a.text == "ben"][0])
    wait_for_path(first, "/players/ben/")

    # The record, as the page's download link gives it ...
    first.get(f"{base}{match.get_absolute_url()}")
    href = wait_for(first, lambda d: css(d, "#record-link"))[0].get_attribute("href")
    record = first.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(r => r.text()).then(done);", href)
    assert record.count("\n") > match.version // 2

    # ... replayed where the game and its players are gone: the same final count.
    Match.objects.all().delete()
    get_user_model().objects.all().delete()
    stranger = open_browser("1200,900")
    stranger.get(f"{base}/records/")
    stranger.execute_script("document.getElementById('rec-text').value = arguments[0];", record)
    click(stranger, css(stranger, "#rec-replay")[0])
    final = wait_for(stranger, lambda d: css(d, "#rec-final"))[0]
    totals = [int(td.text) for td in final.find_elements("css selector", "tbody tr:nth-last-child(2) td")]
    places = [int(td.text) for td in final.find_elements("css selector", "tbody tr:last-child td")]
    assert totals == [score["total"] for score in result["scores"]]
    assert places == match.places
