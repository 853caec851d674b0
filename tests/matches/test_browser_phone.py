"""The match board on a phone (issue 33 items 6 and 7), in headless Chromium at 390x844: the question and Send sit in
a bar fixed at the bottom of the window and stay in sight however far the board is scrolled; the page scrolls once
(the board has no scroll box of its own); setup is chosen by tapping the two hand cards to discard; auto-confirm
sends a turn as soon as its last choice is made. At 1280 px nothing of this applies: the drawer is not fixed."""
import time

import pytest

from game.matches import services
from game.models import Match

from .test_browser import by, text_of, wait_for
from .test_browser_bots import worker  # noqa: F401 (a fixture: the queue worker that moves the bots)
from .test_browser_game import sign_in_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = "390,844"


@pytest.fixture
def setup_match(make_user, catalogue):
    """A 2-player match at its first question, the setup's cards to discard, with the user who answers it."""
    ann, ben = make_user("ann"), make_user("ben")
    match = services.create_match(ann, players=2)
    services.join_match(match.pk, ben)
    match = Match.objects.get(pk=match.pk)
    state = services.load_state(match)
    assert state.pending.kind == "setup_keep"
    return match, {0: ann, 1: ben}[state.pending.player], state.pending.player


def open_match(open_browser, live_server, match, user, size=PHONE):
    driver = open_browser(size)
    sign_in_as(driver, live_server.url, user)
    driver.get(f"{live_server.url}/matches/{match.public_id}/")
    wait_for(driver, lambda d: d.find_elements(*by(".match-discard-pick")) and d.find_elements(*by(".match-option")))
    return driver


def in_viewport(driver, selector):
    """The element is drawn and lies wholly inside the window as it is scrolled now."""
    return driver.execute_script("""
        const e = document.querySelector(arguments[0]);
        if (!e || e.offsetParent === null) return false;
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
        """, selector)


def discard_keys(driver):
    return [p.get_attribute("data-discard") for p in driver.find_elements(*by(".match-discard-pick"))]


def tap_card(driver, key):
    """Tap a hand card's discard switch, found afresh (each tap redraws the hand)."""
    button = wait_for(driver, lambda d: d.find_elements(*by(f'[data-discard="{key}"]:not([disabled])')))[0]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def idle(driver):
    return driver.execute_script("return document.getElementById('spinner').hidden")


def answer_the_rest(driver):
    """After the discard is tried, the setup's next question (the starting resources) is the same player's, in the
    same turn: take its first option."""
    wait_for(driver, lambda d: idle(d) and d.find_elements(*by("#turn-bar .match-staged")))
    if not driver.find_elements(*by("#turn-send")):
        button = wait_for(driver, lambda d: d.find_elements(*by("#options .match-option")))[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", button)  # within the bar's list
        button.click()


def scroll_to_bottom(driver):
    driver.execute_script("window.scrollTo(0, document.scrollingElement.scrollHeight)")


def hand_cards(match, seat):
    state = services.load_state(Match.objects.get(pk=match.pk))
    pl = state.players[seat]
    return {("dragon", d) for d in pl.hand} | {("cave", c) for c in pl.caves}


def the_board_scrolls_with_the_page(driver):
    """No box between the board and the page scrolls on its own: the board is as tall as what it holds, and every
    box holding it lets it overflow."""
    return driver.execute_script("""
        const table = document.getElementById('table');
        if (table.scrollHeight > table.clientHeight + 1) return false;
        for (let e = table; e && e !== document.body; e = e.parentElement) {
          if (['auto', 'scroll'].includes(getComputedStyle(e).overflowY)) return false;
        }
        // and nothing on the page that scrolls inside itself is taller than the window
        return Array.from(document.querySelectorAll('#match *')).every((e) => {
          const o = getComputedStyle(e).overflowY;
          return !['auto', 'scroll'].includes(o) || e.clientHeight <= window.innerHeight;
        });""")


def test_the_question_and_send_stay_in_sight_on_a_phone(open_browser, live_server, setup_match):
    match, user, seat = setup_match
    phone = open_match(open_browser, live_server, match, user)
    # At the start of the turn, without scrolling: the question and a way to answer it are in sight.
    assert phone.execute_script("return window.scrollY") == 0
    assert in_viewport(phone, "#prompt-text") and "Your turn" in text_of(phone, "#prompt-text")
    assert phone.execute_script("return getComputedStyle(document.getElementById('prompt')).position") == "fixed"
    assert the_board_scrolls_with_the_page(phone)
    assert phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    # Choose (two cards tapped): Send appears in the bar, in sight.
    for key in discard_keys(phone)[:2]:
        tap_card(phone, key)
        wait_for(phone, idle)
    answer_the_rest(phone)
    wait_for(phone, lambda d: idle(d) and d.find_elements(*by("#turn-send")))
    assert in_viewport(phone, "#turn-send") and in_viewport(phone, "#prompt-text")
    # Scrolled to the very bottom of the page: still in sight, and the page's end is not hidden behind the bar.
    scroll_to_bottom(phone)
    assert phone.execute_script("return window.scrollY") > 0  # the page itself scrolled, once
    assert in_viewport(phone, "#turn-send") and in_viewport(phone, "#prompt-text")
    last = phone.execute_script("return document.getElementById('match').lastElementChild.getBoundingClientRect()"
                                ".toJSON()")
    bar = phone.execute_script("return document.getElementById('prompt').getBoundingClientRect().toJSON()")
    assert last["bottom"] <= bar["top"] + 1
    # Folding the bar hides the list of choices, never Send.
    phone.find_element(*by("#drawer-toggle")).click()
    assert not phone.find_element(*by("#drawer-body")).is_displayed()
    assert in_viewport(phone, "#turn-send")
    phone.find_element(*by("#drawer-toggle")).click()
    assert phone.find_element(*by("#drawer-body")).is_displayed()


def test_setup_by_tapping_the_two_cards_to_discard(open_browser, live_server, setup_match):
    from selenium.webdriver.common.keys import Keys

    match, user, seat = setup_match
    before = hand_cards(match, seat)
    phone = open_match(open_browser, live_server, match, user)
    picks = phone.find_elements(*by(".match-discard-pick"))
    assert len(picks) == len(before) == 6
    # The list of pairs is still there, folded, for whoever prefers it.
    assert not phone.find_element(*by("#discard-list")).get_attribute("open")
    assert len(phone.find_elements(*by("#discard-list .match-option[data-kind='discard_cards']"))) == 15
    first, second, third = (p.get_attribute("data-discard") for p in picks[:3])

    def press(key):
        tap_card(phone, key)

    def pressed(key):
        return phone.find_element(*by(f'[data-discard="{key}"]')).get_attribute("aria-pressed") == "true"

    # Tap one, tap it again: it is kept after all.
    press(first)
    wait_for(phone, lambda d: pressed(first))
    assert "1 of 2" in text_of(phone, "#discard-count")
    press(first)
    wait_for(phone, lambda d: not pressed(first))
    # The keyboard works the same: Space on one card, Enter on another.
    phone.execute_script(f"document.querySelector('[data-discard=\"{second}\"]').focus()")
    phone.switch_to.active_element.send_keys(Keys.SPACE)
    wait_for(phone, lambda d: pressed(second))
    phone.execute_script(f"document.querySelector('[data-discard=\"{third}\"]').focus()")
    phone.switch_to.active_element.send_keys(Keys.ENTER)
    # The pair is chosen (tried on the server); the setup goes on to the starting resources, by keyboard too.
    wait_for(phone, lambda d: idle(d) and "Discard" in text_of(d, "#turn-bar"))
    if not phone.find_elements(*by("#turn-send")):
        phone.execute_script("document.querySelector('#options .match-option').focus()")
        phone.switch_to.active_element.send_keys(Keys.ENTER)
    # Send is offered, with the focus on it.
    wait_for(phone, lambda d: d.switch_to.active_element.get_attribute("id") == "turn-send")
    assert Match.objects.get(pk=match.pk).version == 0  # nothing stored before Send
    phone.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(phone, lambda d: Match.objects.get(pk=match.pk).version >= 1)

    def card(key):
        kind, index = key.split(":")
        return kind, int(index)
    assert hand_cards(match, seat) == before - {card(second), card(third)}
    decision = Match.objects.get(pk=match.pk).decisions.get(number=1)
    assert decision.kind == "discard_cards"
    # The page shows the hand without them.
    for key in (second, third):
        kind, index = card(key)
        wait_for(phone, lambda d: not d.find_elements(*by(f'#hand [data-{kind}="{index}"]')))


def test_auto_confirm_sends_the_turn_without_send(open_browser, live_server, setup_match):
    match, user, seat = setup_match
    before = hand_cards(match, seat)
    phone = open_match(open_browser, live_server, match, user)
    box = phone.find_element(*by("#autoconfirm"))
    assert not box.is_selected()
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    # The setting is kept: a new page (this browser) has it on.
    phone.refresh()
    wait_for(phone, lambda d: d.find_elements(*by(".match-discard-pick")))
    assert phone.find_element(*by("#autoconfirm")).is_selected()
    keys = discard_keys(phone)[-2:]
    for key in keys:
        tap_card(phone, key)
        wait_for(phone, idle)
    answer_the_rest(phone)  # the last choice of the turn: sent at once, no Send pressed
    wait_for(phone, lambda d: Match.objects.get(pk=match.pk).version >= 1)
    gone = {(k.split(":")[0], int(k.split(":")[1])) for k in keys}
    assert hand_cards(match, seat) == before - gone
    assert not phone.find_elements(*by("#turn-send"))


def test_the_desktop_layout_is_unchanged(open_browser, live_server, setup_match):
    match, user, seat = setup_match
    desk = open_match(open_browser, live_server, match, user, size="1280,900")
    style = desk.execute_script("""
        const s = (id) => getComputedStyle(document.getElementById(id));
        return {drawer: s('prompt').position, side: getComputedStyle(document.querySelector('.match-side')).position,
                pad: s('match').paddingBottom};""")
    assert style == {"drawer": "static", "side": "sticky", "pad": "0px"}
    # The drawer heads the side column, right of the board, as before.
    board = desk.execute_script("return document.getElementById('table').getBoundingClientRect().toJSON()")
    drawer = desk.execute_script("return document.getElementById('prompt').getBoundingClientRect().toJSON()")
    assert drawer["left"] >= board["right"] and abs(drawer["top"] - board["top"]) < 40
    # The cards in hand can still be tapped for the setup there too.
    assert desk.find_elements(*by(".match-discard-pick"))


@pytest.mark.slow
@pytest.mark.usefixtures("worker")
def test_a_person_plays_a_4_player_game_against_three_strong_bots_on_a_phone(open_browser, live_server, catalogue,
                                                                            make_user):
    """Issue 33, done when: a whole 4-player game to the final score on a phone-sized window against three strong
    bots, the person answering each question in the cheapest way (the first option, then Send)."""
    from selenium.common.exceptions import WebDriverException

    from tests.browser import replaced_mid_read

    from .test_browser_bots import final_scores_shown
    from .test_browser_game import idle

    user = make_user("ann")
    match = services.play_now(user, opponent="bots", bot_levels=("strong", "strong", "strong"))
    phone = open_browser(PHONE)
    sign_in_as(phone, live_server.url, user)
    phone.get(f"{live_server.url}/matches/{match.public_id}/")
    wait_for(phone, lambda d: d.find_elements(*by("#you .match-space")))
    sent = 0
    for _ in range(20000):
        match = Match.objects.get(pk=match.pk)
        if match.status == Match.Status.FINISHED:
            break
        state = services.load_state(match)
        if state.pending.player != 0:
            time.sleep(0.2)  # a bot thinks, or its move waits for the worker
            continue
        phone.execute_script("window.dispatchEvent(new Event('focus'))")
        try:
            if not idle(phone):
                time.sleep(0.1)
            elif phone.find_elements(*by("#turn-send")):
                phone.find_element(*by("#turn-send")).click()
                sent += 1
                wait_for(phone, lambda d: idle(d) and not d.find_elements(*by("#turn-send")), timeout=60)
            elif phone.find_elements(*by(".match-option")):
                # folded groups are unfolded by a person; the test presses the first option itself
                phone.execute_script("document.querySelector('.match-option').click()")
                wait_for(phone, idle, timeout=60)
            else:
                time.sleep(0.2)  # the page has not looked yet
        except WebDriverException as exc:
            if not replaced_mid_read(exc):
                raise
    else:
        raise AssertionError("the game did not end")
    wait_for(phone, final_scores_shown, timeout=60)
    match = Match.objects.get(pk=match.pk)
    # the first option is often Pass, so a turn is often one Send: at least one a round
    assert match.status == "finished" and match.ending == "scored" and sent >= 4
    assert list(match.seats.values_list("level", flat=True)) == ["", "strong", "strong", "strong"]
    assert services.replay(match).to_json() == match.state
    assert "The game is over" in text_of(phone, "#prompt-text")
