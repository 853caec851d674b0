"""Two people in two headless Chromium windows open a match, join it, and play its opening decisions by clicking."""
import pytest
from django.contrib.auth import get_user_model

from game.matches.ids import is_public_id
from game.models import Match
from tests.browser import by, wait_for, wait_for_path  # noqa: F401 (the match browser tests import them from here)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password"




def text_of(driver, css):
    """The element's text, read again if a poll replaced the element while it was being read."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    for _ in range(5):
        found = driver.find_elements(*by(css))
        try:
            return found[0].text if found else ""
        except StaleElementReferenceException:
            continue
        except WebDriverException as exc:
            # Chromium's driver reports a node replaced mid-read this way too, not always as a stale element.
            if "does not belong to the document" not in str(exc):
                raise
    return ""


def sign_up(driver, base, name):
    driver.get(f"{base}/accounts/signup/?next=/matches/")
    driver.find_element(*by("#id_username")).send_keys(name)
    driver.find_element(*by("#id_password1")).send_keys(PASSWORD)
    driver.find_element(*by("#id_password2")).send_keys(PASSWORD)
    driver.find_element(*by("form button[type=submit]")).click()
    wait_for_path(driver, "/matches/")


def click_option(driver, kind, args=None):
    """Click the first option button of a kind (or with exactly these args), then wait for the spinner to go."""
    import json

    from selenium.common.exceptions import StaleElementReferenceException

    def press(d):
        """Find and click the button in one go; a poll that re-renders the options in between means try again."""
        try:
            buttons = d.find_elements(*by(f'.match-option[data-kind="{kind}"]'))
            if args is not None:
                buttons = [b for b in buttons if json.loads(b.get_attribute("data-args")) == args]
            if not buttons:
                return None
            # a list folded away (the setup's pairs, beside tapping the hand's cards) is unfolded, as a person would
            d.execute_script("const f = arguments[0].closest('details'); if (f) f.open = true;"
                             "arguments[0].scrollIntoView({block: 'center'})", buttons[0])
            label = buttons[0].text
            buttons[0].click()
            return (label,)  # truthy even for an empty label, so the wait never clicks twice
        except StaleElementReferenceException:
            return None

    (label,) = wait_for(driver, press)
    wait_for(driver, lambda d: d.find_element(*by("#spinner")).get_attribute("hidden") is not None)
    return label


def send_turn(driver):
    """Confirm the turn tried so far (the board sends nothing before), then wait until it is sent."""
    from selenium.common.exceptions import StaleElementReferenceException

    def press(d):
        """Find and click in one go: a poll may redraw the drawer between finding the button and clicking it."""
        try:
            found = d.find_elements(*by("#turn-send"))
            if found:
                found[0].click()
            return bool(found)
        except StaleElementReferenceException:
            return False
    wait_for(driver, press)
    wait_for(driver, lambda d: not d.find_elements(*by("#turn-send"))
             and d.find_element(*by("#spinner")).get_attribute("hidden") is not None)


def test_two_players_open_join_and_play_the_opening_decisions(open_browser, live_server, catalogue):
    base = live_server.url
    ann = open_browser("1200,900")
    ben = open_browser("390,844")  # a phone

    # Ann signs up and opens a two-player match from the lobby.
    sign_up(ann, base, "ann")
    ann.find_element(*by("#id_players option[value='2']")).click()
    ann.find_element(*by("#create-match button[type=submit]")).click()
    wait_for(ann, lambda d: "/matches/" in d.current_url and is_public_id(d.current_url.rstrip("/").split("/")[-1]))
    match = Match.objects.get()
    assert "Waiting for players: 1 of 2" in text_of(ann, "#match-waiting")

    # Ben, on his phone, signs up and joins from the lobby's open list; the match starts.
    sign_up(ben, base, "ben")
    ben.find_element(*by(f'button[data-join="{match.public_id}"]')).click()
    wait_for(ben, lambda d: d.current_url.endswith(f"/matches/{match.public_id}/"))
    assert Match.objects.get().status == "playing"
    wait_for(ben, lambda d: "Waiting for ann" in text_of(d, "#prompt-text"))

    # Ann's page notices by itself, and offers her the setup choices.
    wait_for(ann, lambda d: "Your turn: Choose the cards you do not keep" in text_of(d, "#prompt-text"))
    assert len(ann.find_elements(*by("#hand .match-dragon"))) == 3
    click_option(ann, "discard_cards")
    wait_for(ann, lambda d: "starting resources" in text_of(d, "#prompt-text"))
    assert len(ann.find_elements(*by("#hand .match-card"))) == 4
    click_option(ann, "resources", ["meat", "gold", "milk"])
    assert Match.objects.get().version == 0  # tried, not sent: the turn waits for its confirmation
    assert "This turn so far" in text_of(ann, "#turn-bar")
    send_turn(ann)

    # Ben's page tells Ann's moves in the log (her kept cards only counted) and then asks him.
    wait_for(ben, lambda d: "Your turn: Choose the cards you do not keep" in text_of(d, "#prompt-text"))
    assert "ann kept 4 cards and discarded " in text_of(ben, "#log")
    assert "ann took 1 meat, 1 gold and 1 milk as starting resources." in text_of(ben, "#log")
    click_option(ben, "discard_cards")
    click_option(ben, "resources", ["crystal", "crystal", "crystal"])
    send_turn(ben)

    match = Match.objects.get()
    assert match.version == 4
    assert [(d.seat, d.kind) for d in match.decisions.all()] == [
        (0, "discard_cards"), (0, "resources"), (1, "discard_cards"), (1, "resources")]
    assert match.state["players"][0]["res"] == [1, 1, 0, 1] and match.state["players"][1]["res"] == [0, 0, 3, 0]

    # The start player is asked for an action; the other waits. Each sees their own mat and the other's.
    start = match.state["start"]
    chooser, watcher = (ann, ben) if start == 0 else (ben, ann)
    wait_for(chooser, lambda d: "Your turn: Choose your action" in text_of(d, "#prompt-text"))
    wait_for(watcher, lambda d: "Waiting for" in text_of(d, "#prompt-text") and "Choose your action"
             in text_of(d, "#prompt-text"))
    for driver in (ann, ben):
        assert len(driver.find_elements(*by("#you .match-space"))) == 12
        assert len(driver.find_elements(*by("#opponents .match-space"))) == 12
        log = text_of(driver, "#log")
        assert log.startswith("Setup") and f"Round 1: {('ann', 'ben')[start]}'s turn" in log and "passed" not in log
    # The opponent's hand is only a count: no card of it is drawn on the page.
    ben_hand = set(match.state["players"][1]["hand"])
    shown = {int(e.get_attribute("data-dragon")) for e in ann.find_elements(*by(".match-dragon"))}
    assert not ben_hand & shown

    # The phone shows the board without sideways scrolling.
    assert ben.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")

    # The start player passes; the turn goes to the other, whose page asks them by itself.
    click_option(chooser, "pass")
    send_turn(chooser)
    wait_for(watcher, lambda d: "Your turn: Choose your action" in text_of(d, "#prompt-text"))
    assert Match.objects.get().version == 5

    # A page that missed a move (here: its polling paused, and a choice made elsewhere) is told so, not obeyed.
    watcher.execute_script("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    seat = 1 - start
    user = get_user_model().objects.get(username=("ann", "ben")[seat])
    from game.matches import services
    services.submit_decision(match.pk, user, 5, {"kind": "pass", "args": []})
    watcher.find_element(*by('.match-option[data-kind="pass"]')).click()
    wait_for(watcher, lambda d: "moved on to version 6" in text_of(d, "#decision-error"))
    assert Match.objects.get().version == 6 and Match.objects.get().decisions.count() == 6
    # The refused page loads the match afresh: the log now holds the pass made elsewhere.
    wait_for(watcher, lambda d: text_of(d, "#log").count(" passed.") == 2)
