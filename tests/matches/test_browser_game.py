"""Whole games through the pages: two people play a 2-player match to its final score in two Chromium windows,
choosing by pointing at the table where they can and from the drawer otherwise, confirming each turn; and a
4-player match is played in part with one player on a phone-sized window."""
import random

import pytest
from django.contrib.auth import get_user_model

from game.matches import seeds, services
from game.matches.ids import is_public_id
from game.models import Match
from tests.browser import replaced_mid_read, wait_for_path

from .test_browser import PASSWORD, by, sign_up, text_of, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]




def sign_in(driver, base, name):
    driver.get(f"{base}/accounts/login/?next=/matches/")
    driver.find_element(*by("#id_username")).send_keys(name)
    driver.find_element(*by("#id_password")).send_keys(PASSWORD)
    driver.find_element(*by("form button[type=submit]")).click()
    wait_for_path(driver, "/matches/")


def tap(driver, css):
    """Find and click in one go: a poll may redraw the board between finding an element and clicking it."""
    from selenium.common.exceptions import StaleElementReferenceException

    def press(d):
        try:
            found = d.find_elements(*by(css))
            if not found:
                return False
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", found[0])
            found[0].click()
            return True
        except StaleElementReferenceException:
            return False
    wait_for(driver, press)


def idle(driver):
    return driver.execute_script("return document.getElementById('spinner').hidden")


def my_turn(driver):
    """Wake the page's poll (as focusing the window does) and say whether it offers choices now."""
    driver.execute_script("window.dispatchEvent(new Event('focus'))")
    return idle(driver) and (driver.find_elements(*by(".match-option")) or driver.find_elements(*by("#turn-send")))


def in_sight(driver, element):
    """Scroll `element` to the middle of its scroll box first, as a person brings what they tap into view. The
    driver's own scrolling brings it only to the box's edge, where on a phone the drawer below may still be
    settling after a redraw. The click stays a real one, so anything truly lying over the element still fails."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return element


def point_or_choose(driver, rng):
    """One choice as a person makes it: pick up a hand card and tap a lit space, tap a lit cave or square, or press
    an option in the drawer. Returns how it was made."""
    picks = driver.find_elements(*by(".match-pick[data-pick]"))
    if picks and rng.random() < 0.5:
        in_sight(driver, rng.choice(picks)).click()
        spaces = wait_for(driver, lambda d: d.find_elements(*by("#you .match-space.match-target")))
        in_sight(driver, rng.choice(spaces)).click()
        return "pointed"
    lit = driver.find_elements(*by("#you .match-target, #guild .match-target"))
    if lit and rng.random() < 0.3:
        in_sight(driver, rng.choice(lit)).click()
        return "tapped"
    buttons = driver.find_elements(*by(".match-option"))
    # Passing is one choice among many; taken less often, so the rounds see some play.
    weights = [0.15 if b.get_attribute("data-kind") == "pass" else 1 for b in buttons]
    button = rng.choices(buttons, weights)[0]
    # Groups of many options are folded in the drawer; a person unfolds them, the test presses the button itself.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", button)
    return "drawer"


def take_turn(driver, rng, ways):
    """Make choices until the board asks to confirm the turn, then send it. A poll that re-renders the board between
    finding a button and pressing it means look again, as a person would; any other driver error is the page's."""
    from selenium.common.exceptions import WebDriverException
    for _ in range(40):
        wait_for(driver, idle)
        try:
            sends = driver.find_elements(*by("#turn-send"))
            if sends:
                sends[0].click()
                wait_for(driver, lambda d: idle(d) and not d.find_elements(*by("#turn-send")))
                return
            if not driver.find_elements(*by(".match-option")):
                return  # a multi-choice tap opened a chooser and was answered, or the page reloaded at the end
            ways.add(point_or_choose(driver, rng))
        except WebDriverException as exc:
            if not replaced_mid_read(exc):
                raise
    raise AssertionError("a turn that never asked to be confirmed")


def test_two_players_play_a_whole_game_to_the_final_score(open_browser, live_server, catalogue):
    base = live_server.url
    ann = open_browser("1300,950")
    ben = open_browser("1100,900")
    sign_up(ann, base, "ann")
    ann.find_element(*by("#id_players option[value='2']")).click()
    ann.find_element(*by("#create-match button[type=submit]")).click()
    wait_for(ann, lambda d: is_public_id(d.current_url.rstrip("/").split("/")[-1]))
    match = Match.objects.get()
    sign_up(ben, base, "ben")
    ben.get(f"{base}/matches/{match.public_id}/")
    ben.find_element(*by("#join-button")).click()
    wait_for(ben, lambda d: d.find_elements(*by("#you .match-space")))
    drivers = {"ann": ann, "ben": ben}

    rng = random.Random(5)
    ways = set()
    for step in range(600):
        match = Match.objects.get(pk=match.pk)
        if match.status == "finished":
            break
        driver = drivers[match.seats.get(seat=match.to_move).user.username]
        before = match.version
        wait_for(driver, my_turn)
        take_turn(driver, rng, ways)
        assert Match.objects.get(pk=match.pk).version > before, "a confirmed turn stores its decisions"
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.state["result"] is not None
    assert match.version == match.decisions.count() and services.replay(match).to_json() == match.state
    assert {"pointed", "drawer"} <= ways  # hand cards were played by pointing at the mat, the rest from the drawer

    # Both pages end on the final breakdown, with the winner in words and the engine's totals.
    totals = [s["total"] for s in match.state["result"]["scores"]]
    for driver in (ann, ben):
        driver.execute_script("window.dispatchEvent(new Event('focus'))")
        wait_for(driver, lambda d: d.find_elements(*by("#final-scores")), timeout=30)
        shown = [int(td.text) for td in driver.find_elements(*by("#final-scores tfoot tr.match-total td"))]
        assert shown == totals
        assert "wins" in text_of(driver, "#ending-title") or "share the win" in text_of(driver, "#ending-title")
        assert "The game is over" in text_of(driver, "#prompt-text")


def test_four_players_with_one_on_a_phone(open_browser, live_server, catalogue):
    base = live_server.url
    users = [get_user_model().objects.create_user(name, password=PASSWORD) for name in ("ann", "ben", "cat", "dan")]
    match = services.create_match(users[0], players=4)
    for user in users[1:]:
        services.join_match(match.pk, user)
    phone = open_browser("390,844")
    sign_in(phone, base, "ben")
    phone.get(f"{base}/matches/{match.public_id}/")
    wait_for(phone, lambda d: d.find_elements(*by("#you .match-space")))
    rng = random.Random(2)
    ways = set()
    phone_turns = 0
    while phone_turns < 6:
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
        seat = state.pending.player
        if seat != 1:  # the others play through the services, as their own pages would
            option = rng.choice(state.legal_options())
            services.submit_decision(match.pk, users[seat], match.version, option.to_dict())
            continue
        wait_for(phone, my_turn)
        if phone_turns == 2:
            check_the_phone_layout(phone)
        take_turn(phone, rng, ways)
        phone_turns += 1
    assert Match.objects.get(pk=match.pk).decisions.filter(seat=1).count() >= 6

    # The other mats are one tap away: a tab per opponent, each showing that player's mat.
    seats = [t.get_attribute("data-seat-tab") for t in phone.find_elements(*by("[data-seat-tab]"))]
    assert seats == ["0", "2", "3"]
    for seat in reversed(seats):
        tap(phone, f'[data-seat-tab="{seat}"]')
        wait_for(phone, lambda d: d.find_elements(*by(f'#opponents .match-player[data-seat="{seat}"]')))
        assert len(phone.find_elements(*by("#opponents .match-space"))) == 12

    # Coming back later: the moves made meanwhile are marked in the log.
    phone.get(f"{base}/matches/{match.public_id}/")
    wait_for(phone, lambda d: d.find_elements(*by("#log li")))
    assert not phone.find_elements(*by("#log li.match-new"))
    moved = 0
    while True:
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
        if state.pending.player == 1:
            break
        services.submit_decision(match.pk, users[state.pending.player], match.version,
                                 rng.choice(state.legal_options()).to_dict())
        moved += 1
    assert moved
    phone.execute_script("window.dispatchEvent(new Event('focus'))")
    # Each decision made meanwhile is marked (every line it caused), and the note counts them.
    wait_for(phone, lambda d: len({e.get_attribute("data-decision")
                                   for e in d.find_elements(*by("#log li.match-new"))}) == moved)
    assert "since your last visit" in text_of(phone, "#log-new")

    # The replay viewer steps through the match on the drawn table, by touch and by keyboard.
    last = Match.objects.get(pk=match.pk).version
    tap(phone, "#replay-open")
    wait_for(phone, lambda d: f"move 0 of {last}" in text_of(d, "#replay-bar"))
    assert "set up" in text_of(phone, "#replay-bar")
    assert len(phone.find_elements(*by("#you .match-space"))) == 12
    assert "leave it to play on" in text_of(phone, "#prompt-text") and not phone.find_elements(*by(".match-option"))
    # the steps are icons we ship (⏮ ⏭ draw as empty boxes where no font has them), named for a screen reader
    for step in ("first", "back", "next", "last"):
        button = phone.find_element(*by(f"#replay-{step}"))
        assert button.text == "" and button.get_attribute("aria-label")
        image = phone.execute_script("return getComputedStyle(arguments[0].querySelector('.icon')).backgroundImage",
                                     button)
        assert f"icons/replay-{step}" in image
    tap(phone, "#replay-next")
    wait_for(phone, lambda d: f"move 1 of {last}" in text_of(d, "#replay-bar"))
    phone.find_element(*by("body")).send_keys("\ue014")  # the right arrow key
    wait_for(phone, lambda d: f"move 2 of {last}" in text_of(d, "#replay-bar"))
    tap(phone, "#replay-last")
    wait_for(phone, lambda d: f"move {last} of {last}" in text_of(d, "#replay-bar"))
    tap(phone, "#replay-close")
    wait_for(phone, lambda d: d.find_elements(*by(".match-option")) and not text_of(d, "#replay-bar"))


def check_the_phone_layout(phone):
    """At 390 px: no sideways scrolling, every button at least 44 px, and the drawer a bar at the bottom of the
    window that hides nothing once the page is scrolled to its end (tests/matches/test_browser_phone.py)."""
    assert phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    phone.execute_script("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    last = phone.execute_script("return document.getElementById('match').lastElementChild.getBoundingClientRect()"
                                ".toJSON()")
    drawer = phone.execute_script("return document.getElementById('prompt').getBoundingClientRect().toJSON()")
    height = phone.execute_script("return window.innerHeight")
    assert abs(drawer["bottom"] - height) <= 1 and last["bottom"] <= drawer["top"] + 1
    small = phone.execute_script("""
        return Array.from(document.querySelectorAll('#match button, #match summary, .match-target'))
          .filter((b) => b.offsetParent !== null)
          .filter((b) => { const r = b.getBoundingClientRect(); return r.width > 0 && (r.height < 44 || r.width < 44); })
          .map((b) => `${b.id || b.className}: ${b.textContent.slice(0, 30)}`)""")
    assert small == []


def test_a_dragon_is_enticed_by_keyboard_alone(open_browser, live_server, catalogue, make_user, monkeypatch):
    """Pick up a hand card with Enter, land on the first lit space, choose it with Enter and send the turn with
    Enter: pointing needs no mouse."""
    from selenium.webdriver.common.keys import Keys

    # A known deal: from a random one the set-up below could, rarely, leave the start player nothing to entice.
    monkeypatch.setattr(seeds, "new_seed", lambda: 20261202)
    ann, ben = make_user("ann"), make_user("ben")
    match = services.create_match(ann, players=2)
    services.join_match(match.pk, ben)
    users = {0: ann, 1: ben}
    # Both setups chosen so that the start player can entice a dragon on the first turn.
    for _ in range(4):
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
        seat = state.pending.player
        best = state.legal_options()[0]
        for option in state.legal_options():
            trial = state.clone()
            trial.apply(option)
            while trial.pending is not None and trial.pending.kind != "main_action":
                trial.apply(trial.legal_options()[-1])
            if trial.pending is not None and any(o.kind == "entice" for o in trial.legal_options()):
                best = option
                break
        services.submit_decision(match.pk, users[seat], match.version, best.to_dict())
    match = Match.objects.get(pk=match.pk)
    state = services.load_state(match)
    assert state.pending.kind == "main_action" and any(o.kind == "entice" for o in state.legal_options())
    seat = state.pending.player
    driver = open_browser("1300,950")
    sign_in_as(driver, live_server.url, users[seat])
    driver.get(f"{live_server.url}/matches/{match.public_id}/")
    wait_for(driver, lambda d: d.find_elements(*by('.match-pick[data-pick^="dragon:"]')))
    driver.execute_script("document.querySelector('.match-pick[data-pick^=\"dragon:\"]').focus()")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: d.switch_to.active_element.get_attribute("data-space") is not None)
    space = int(driver.switch_to.active_element.get_attribute("data-space"))
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "turn-send")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: Match.objects.get(pk=match.pk).version > 4)
    decision = Match.objects.get(pk=match.pk).decisions.get(number=5)
    assert decision.kind == "entice" and decision.args[1] * 4 == space
    assert Match.objects.get(pk=match.pk).state["players"][seat]["spaces"][space][1] == decision.args[0]


def sign_in_as(driver, base, user):
    from django.test import Client
    client = Client()
    client.force_login(user)
    driver.get(f"{base}/")
    driver.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})


def test_a_fresh_browser_marks_what_was_played_since_the_players_own_last_move(open_browser, live_server, catalogue,
                                                                              make_user, monkeypatch):
    """A player who moved on another device, then came back on a browser that never showed the match: the moves
    played after their own last choice are marked, and theirs is not."""
    monkeypatch.setattr(seeds, "new_seed", lambda: 20261203)
    ann, ben = make_user("ann"), make_user("ben")
    match = services.create_match(ann, players=2)
    services.join_match(match.pk, ben)
    users = {0: ann, 1: ben}
    rng = random.Random(5)
    mine, others = None, set()
    while len(others) < 3 or mine is None:
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
        seat = state.pending.player
        services.submit_decision(match.pk, users[seat], match.version, rng.choice(state.legal_options()).to_dict())
        if seat == 0:
            mine, others = match.version + 1, set()
        else:
            others.add(match.version + 1)
    driver = open_browser("1300,950")
    sign_in_as(driver, live_server.url, ann)
    driver.get(f"{live_server.url}/matches/{match.public_id}/")
    marked = wait_for(driver, lambda d: {int(e.get_attribute("data-decision"))
                                         for e in d.find_elements(*by("#log li.match-new"))} or None)
    assert marked == others and mine not in marked
    assert "3 moves since your last visit" in text_of(driver, "#log-new")


def test_a_players_own_moves_are_never_marked_new_while_the_others_are(open_browser, live_server, catalogue,
                                                                     make_user, monkeypatch):
    monkeypatch.setattr(seeds, "new_seed", lambda: 20261207)
    ann, ben = make_user("ann"), make_user("ben")
    match = services.create_match(ann, players=2)
    services.join_match(match.pk, ben)
    users = {0: ann, 1: ben}
    rng = random.Random(7)

    def play_while(seat):
        numbers = []
        while True:
            current = Match.objects.get(pk=match.pk)
            state = services.load_state(current)
            if state.pending is None or state.pending.player != seat:
                return numbers
            services.submit_decision(match.pk, users[seat], current.version,
                                     rng.choice(state.legal_options()).to_dict())
            numbers.append(current.version + 1)

    for _ in range(3):  # well into the game (what the server draws no longer changes with a move), and then
        play_while(0)
        play_while(1)  # ann (seat 0) to move when her page opens
    driver = open_browser("1300,950")
    sign_in_as(driver, live_server.url, ann)
    driver.get(f"{live_server.url}/matches/{match.public_id}/")
    wait_for(driver, lambda d: d.find_elements(*by("#log li")))
    mine = play_while(0)  # her own choices, made as this page would send them
    assert mine
    driver.execute_script("window.dispatchEvent(new Event('focus'))")
    wait_for(driver, lambda d: d.find_elements(*by(f'#log li[data-decision="{mine[-1]}"]')))
    assert not driver.find_elements(*by("#log li.match-new"))
    theirs = play_while(1)
    assert theirs
    driver.execute_script("window.dispatchEvent(new Event('focus'))")
    marked = wait_for(driver, lambda d: {int(e.get_attribute("data-decision"))
                                         for e in d.find_elements(*by("#log li.match-new"))} or None)
    assert marked <= set(theirs) and not marked & set(mine)
