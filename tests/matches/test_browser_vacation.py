"""Vacation in headless Chromium: the player to move goes on vacation from their settings page, and the match page
then says so to both players, with the deadline moved back by the vacation's days."""
from datetime import timedelta

import pytest

from game.matches import services
from game.models import Match
from tests.browser import click, css, wait_for, wait_for_path

from .test_browser_game import sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_goes_on_vacation_and_the_match_page_shows_it(open_browser, live_server, catalogue, make_user):
    base = live_server.url
    ann, ben = make_user("ann"), make_user("ben")
    match = services.create_match(ann, players=2, days_per_move=3)
    services.join_match(match.pk, ben)
    match = Match.objects.get(pk=match.pk)
    away = match.seats.get(seat=match.to_move).user
    other = ben if away == ann else ann
    deadline = match.deadline

    driver = open_browser("1200,900")
    sign_in_as(driver, base, away)
    driver.get(f"{base}/matches/notifications/")
    click(driver, css(driver, "#vacation-link")[0])
    wait_for_path(driver, "/matches/vacation/")
    css(driver, "#id_days")[0].send_keys("5")
    click(driver, css(driver, "#vacation-start")[0])
    status = wait_for(driver, lambda d: css(d, "#vacation-status"))
    assert "You are on vacation until" in status[0].text

    match.refresh_from_db()
    assert match.deadline - deadline == timedelta(days=5)
    watcher = open_browser("1200,900")
    sign_in_as(watcher, base, other)
    watcher.get(f"{base}{match.get_absolute_url()}")
    note = wait_for(watcher, lambda d: css(d, ".match-away"))
    assert f"{away.username} is on vacation until" in note[0].text
    # the deadline shown is eight days off (three for the move, five of vacation), not three
    wait_for(watcher, lambda d: "7 days" in css(d, "#match-deadline")[0].text)
