"""Play now in headless Chromium: one click on the home page starts a game against the Automa or against bots, and
the person plays it to the final score by clicking. The bots' moves are made by the task queue's own worker (in
this process, as `dev.py serve` runs it), as soon as it is their turn; the person's choices are made by a seeded
random player reading the legal options, and clicked on the page like anyone would.

Set WYRMDEX_SCREENSHOTS to a folder to keep screenshots of each page for a person to look at."""
import re
import time

import pytest
from django.contrib.auth import get_user_model
from huey.contrib.djhuey import HUEY
from huey.storage import MemoryStorage

from cardsite import queue
from game.matches import services
from game.matches.ids import is_public_id
from game.models import Match

from .test_browser import PASSWORD, by, text_of, wait_for
from .test_browser_async import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker():
    """The queue's consumer in this process's threads, as `dev.py serve` runs it."""
    HUEY.immediate = False
    HUEY.storage = MemoryStorage("wyrmdex-test-bots")
    yield queue.start_in_process(workers=1, periodic=False, initial_delay=0.05, max_delay=0.2)
    queue.stop_in_process()
    HUEY.immediate = True


@pytest.fixture
def browser():
    from tests.browser import start_chromium

    driver = start_chromium("390,844")  # a phone
    yield driver
    driver.quit()


def play_to_the_end(driver, match_id, seed, limit=2000):
    """Play seat 0 through the page as a person does (point or choose, then confirm each turn) until the match is
    over, while the worker moves the bots; returns how many turns were sent."""
    import random

    from tests.matches.test_browser_game import my_turn, take_turn

    rng = random.Random(seed)
    ways = set()
    turns = 0
    for _ in range(limit):
        match = Match.objects.get(pk=match_id)
        if match.status == Match.Status.FINISHED:
            return turns
        state = services.load_state(match)
        if state.pending.player != 0 or not my_turn(driver):
            time.sleep(0.2)  # a bot is thinking, its move waits for the worker, or the page has not looked yet
            continue
        take_turn(driver, rng, ways)
        turns += 1
    raise AssertionError("the game did not end")


def final_scores_shown(driver):
    driver.execute_script("window.dispatchEvent(new Event('focus'))")
    return driver.find_elements(*by("#final-scores"))


def test_one_click_starts_a_solo_game_against_the_automa_played_to_the_final_score(browser, live_server, catalogue,
                                                                                   worker):
    get_user_model().objects.create_user("ann", password=PASSWORD)
    base = live_server.url
    sign_in(browser, base, "ann", "/")
    browser.find_element(*by("#id_automa_level option[value='1']")).click()
    browser.find_element(*by("#play-automa-go")).click()
    wait_for(browser, lambda d: is_public_id(d.current_url.rstrip("/").split("/")[-1]))
    match = Match.objects.get()
    assert browser.current_url.endswith(f"/matches/{match.public_id}/")
    assert (match.players, match.automa_level, match.status) == (1, 1, "playing")
    wait_for(browser, lambda d: "Level 1" in text_of(d, "#automa-mode"))
    assert "The Automa" in text_of(browser, "#automa h2")
    assert "Her 8: 1, 2, 3, 4, 5, 6, 7, 8." in text_of(browser, "#automa-deck")  # level 1's decision cards
    assert "Her score as it stands: 0 VP" in text_of(browser, "#automa-score")
    assert browser.find_element(*by("#solo-help-link")).get_attribute("href").endswith("/rules/#solo")
    shot(browser, "solo-start-phone")

    assert play_to_the_end(browser, match.pk, seed=1) > 10
    wait_for(browser, final_scores_shown, timeout=30)
    browser.refresh()
    match = Match.objects.get()
    result = match.state["result"]
    mine, hers = result["scores"][0]["total"], result["scores"][1]["total"]
    table = text_of(browser, "#final-scores")
    assert "The Automa" in table and "ann" in table
    winner = "ann" if mine >= hers else "The Automa"
    assert text_of(browser, "#ending-title") == f"{winner} wins with {max(mine, hers)} VP."
    # Her panel after the game: what she took, and the same total as the final scores.
    wait_for(browser, lambda d: f"Her score as it stands: {hers} VP" in text_of(d, "#automa-score"))
    dragons = result["automa"]["dragon_cards"]
    assert f"{dragons} dragon card{'' if dragons == 1 else 's'} taken" in text_of(browser, "#automa-dragons")
    assert len(result["automa"]["objective_places"]) == 4 and "round 4" in text_of(browser, "#automa-objective")
    shot(browser, "solo-end-phone")


# Each text the board's "moves since you looked" bar shows, kept across the page's reloads in sessionStorage.
WATCH_STEPS = """
document.addEventListener("DOMContentLoaded", () => {
  const bar = document.getElementById("replay-bar");
  if (!bar) return;
  new MutationObserver(() => {
    const where = document.getElementById("catch-up-where");
    if (!where) return;
    const seen = JSON.parse(sessionStorage.getItem("steps") || "[]");
    if (seen[seen.length - 1] !== where.textContent) seen.push(where.textContent);
    sessionStorage.setItem("steps", JSON.stringify(seen));
  }).observe(bar, {childList: true, subtree: true, characterData: true});
});
"""


def test_a_three_player_game_against_two_bots_is_played_to_the_end(browser, live_server, catalogue, worker):
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_STEPS})
    get_user_model().objects.create_user("ben", password=PASSWORD)
    base = live_server.url
    sign_in(browser, base, "ben", "/")
    browser.find_element(*by("#id_bot_1 option[value='greedy']")).click()
    browser.find_element(*by("#id_bot_2 option[value='random']")).click()
    shot(browser, "play-now-phone")
    browser.find_element(*by("#play-bots-go")).click()
    wait_for(browser, lambda d: is_public_id(d.current_url.rstrip("/").split("/")[-1]))
    match = Match.objects.get()
    assert browser.current_url.endswith(f"/matches/{match.public_id}/")
    assert list(match.seats.values_list("level", flat=True)) == ["", "greedy", "random"]

    play_to_the_end(browser, match.pk, seed=2)
    wait_for(browser, final_scores_shown, timeout=30)
    match = Match.objects.get()
    assert match.status == "finished" and match.ending == "scored"
    bots_moved = match.decisions.filter(seat__in=[1, 2]).count()
    assert bots_moved > 40  # every bot decision was the worker's: nobody else decides for seats 1 and 2
    assert services.replay(match).to_json() == match.state
    # The bots' runs of moves were shown one by one, each named with its bot and what it did.
    steps = browser.execute_script("return JSON.parse(sessionStorage.getItem('steps') || '[]')")
    assert len(steps) >= 5
    pattern = re.compile(r"Move (\d+) of (\d+) · Bot \((greedy|random)\): \S")
    assert all(pattern.match(step) for step in steps), steps
    numbers = [int(pattern.match(step)[1]) for step in steps]
    assert any(b == a + 1 for a, b in zip(numbers, numbers[1:]))  # a run of several moves, stepped in order
    browser.refresh()
    assert "Bot (greedy)" in text_of(browser, "#final-scores")
    shot(browser, "bots-end-phone")
