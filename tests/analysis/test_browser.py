"""A person in headless Chromium builds a position by clicking only on the drawn table (supply, nests, explores,
the guild track and tile, an objective place, a cave card in hand, the mat), asks what excavating the 4th Crimson
space costs, follows one branch, goes back and follows another; a refused click names its field; on a 390px-wide
phone the board fits and its edit buttons are touch-sized."""
import pytest
from selenium.webdriver.common.keys import Keys

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser():
    yield from open_chromium("412,915")


def space(driver, cave, column):
    return css(driver, f'.an-space[data-cave="{cave}"][data-column="{column}"]')[0]


def idle(driver):
    return "an-busy" not in css(driver, "#analysis")[0].get_attribute("class")


def key(driver, name):
    return css(driver, f'[data-key="{name}"]')[0]


def press(driver, name, done):
    """Click the control keyed `name` on the drawn table and wait for the answer to show `done`."""
    click(driver, key(driver, name))
    wait_for(driver, lambda d: idle(d) and done(d))


def pressed(driver, name):
    return key(driver, name).get_attribute("aria-pressed") == "true"


def test_build_by_clicking_ask_a_question_and_follow_two_branches(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    click(browser, css(browser, "#an-empty")[0])
    wait_for(browser, lambda d: idle(d) and "0 coins" in css(d, ".an-summary")[0].text)
    # The mat is drawn with what it prints along each cave: an icon before each of the 4 spaces and one at the end.
    assert [len(css(path, ".match-path-icon")) for path in css(browser, ".an-path")] == [5, 5, 5]
    assert all(icon.get_attribute("title") for icon in css(browser, ".an-path .match-path-icon[title]"))
    assert len(css(browser, ".an-path .match-path-icon[title]")) >= 12

    # Only clicks on the drawn table from here. Three coins and a meat in the supply (one too many, taken back).
    for n in (1, 2, 3):
        words = f"{n} coin{'s' if n > 1 else ''} ·"
        press(browser, "supply:coin:+", lambda d, words=words: words in css(d, ".an-summary")[0].text)
    press(browser, "supply:meat:+", lambda d: "1 meat" in css(d, ".an-summary")[0].text)
    press(browser, "supply:meat:-", lambda d: "0 meat" in css(d, ".an-summary")[0].text)
    assert key(browser, "supply:meat:-").get_attribute("disabled") is not None  # nothing to take back now
    # Two eggs in the mat nests; the Golden Grotto explored once this round.
    for n in (1, 2):
        words = f"{n} egg{'s' if n > 1 else ''} in mat nests"
        press(browser, "nest:+", lambda d, words=words: words in css(d, ".an-summary")[0].text)
    press(browser, "explore:golden_grotto:+", lambda d: "explored 1×" in css(d, ".an-cave-name")[1].text)
    # The guild token two spaces on, a marker on the guild tile's first square, 1st place on round 1's objective.
    press(browser, "track:2", lambda d: pressed(d, "track:2"))
    assert not pressed(browser, "track:0")
    press(browser, "square:0:0", lambda d: pressed(d, "square:0:0"))
    press(browser, "place:1:1", lambda d: pressed(d, "place:1:1"))
    # A cave card in hand (from the deck), then the Crimson Cavern excavated up to its 3rd space.
    press(browser, "cave:add", lambda d: len(css(d, ".an-cave-card")) == 1)
    click(browser, space(browser, "crimson_cavern", 3))
    wait_for(browser, lambda d: idle(d) and "an-dug" in space(d, "crimson_cavern", 3).get_attribute("class"))
    # The keyboard user's place survives the redraw: the button clicked has the focus again.
    assert browser.execute_script("return document.activeElement.dataset.key") == "space:crimson_cavern:3"
    summary = css(browser, ".an-summary")[0].text
    assert "3 coins" in summary and "2 eggs in mat nests" in summary and "1 cave card ·" in summary
    assert "guild 2" in summary

    # The question: what does the 4th Crimson space cost? The option says it.
    options = [b.text for b in css(browser, ".an-options button")]
    crimson = next(text for text in options if "Excavate the Crimson Cavern" in text)
    assert "costs 1 coin, 2 egg" in crimson

    # Branch 1: excavate it; the 4th column's bonus is asked next.
    click(browser, next(b for b in css(browser, ".an-options button") if "Excavate the Crimson Cavern" in b.text))
    wait_for(browser, lambda d: idle(d) and "4th column" in css(d, ".an-question h3")[0].text)
    assert "an-dug" in space(browser, "crimson_cavern", 4).get_attribute("class")
    assert "0 eggs in mat nests" in css(browser, ".an-summary")[0].text

    # Branch 2: back to the first step, and explore the Amethyst Abyss instead.
    click(browser, css(browser, ".an-steps .an-back")[0])
    wait_for(browser, lambda d: idle(d) and len(css(d, ".an-branches li")) == 2)
    click(browser, next(b for b in css(browser, ".an-options button") if "Explore the Amethyst Abyss" in b.text))
    wait_for(browser, lambda d: idle(d) and any("Explore the Amethyst Abyss" in li.text
                                                 for li in css(d, ".an-steps li")))
    assert "an-dug" not in space(browser, "crimson_cavern", 4).get_attribute("class")
    assert "explored 1×" in css(browser, ".an-cave-name")[2].text
    # Branch 1 is still there, one click away.
    click(browser, css(browser, ".an-branches button")[0])
    wait_for(browser, lambda d: idle(d) and "an-dug" in space(d, "crimson_cavern", 4).get_attribute("class"))
    assert "p=" in browser.current_url
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_a_refused_click_names_the_field_and_changes_nothing(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    press(browser, "square:0:0", lambda d: pressed(d, "square:0:0"))
    click(browser, css(browser, "#an-seats button")[1])  # Player 2 tries the square Player 1 holds
    wait_for(browser, lambda d: not pressed(d, "square:0:0"))
    edits = browser.execute_script("return new URL(location).searchParams.get('p')")
    click(browser, key(browser, "square:0:0"))
    wait_for(browser, lambda d: idle(d) and not css(d, "#an-errors")[0].get_attribute("hidden"))
    error = css(browser, "#an-errors")[0]
    assert error.get_attribute("data-field") == "position.edits[1].square"
    assert "already holds a marker" in error.text
    assert browser.execute_script("return new URL(location).searchParams.get('p')") == edits


def test_the_board_fits_a_phone_with_touch_sized_controls(browser, live_server, catalogue):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    browser.get(live_server.url + "/analysis/?p=" + '{"setup":{"players":2,"seed":3,"academy":true},"edits":[]}')
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    assert browser.execute_script("return window.innerWidth") == 390
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    assert browser.execute_script("return document.body.scrollWidth <= window.innerWidth")
    sizes = browser.execute_script("""
        return Array.from(document.querySelectorAll('#analysis [data-key]')).map(function (b) {
          var r = b.getBoundingClientRect(); return [b.dataset.key, r.width, r.height]; });""")
    kinds = {name.split(":")[0] for name, _, _ in sizes}
    assert {"supply", "nest", "explore", "track", "square", "place", "income", "display", "cave", "hand",
            "round", "passed"} <= kinds
    small = [(name, w, h) for name, w, h in sizes if w < 44 or h < 44]
    assert not small, small


def test_an_empty_table_edited_by_clicks_on_hand_display_round_and_passing(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    click(browser, css(browser, "#an-empty")[0])
    wait_for(browser, lambda d: idle(d) and "0 coins" in css(d, ".an-summary")[0].text
             and "hand: none" in css(d, ".an-summary")[0].text)

    css(browser, "#an-dragon")[0].send_keys("128")
    click(browser, css(browser, ".an-hand-add")[0])
    wait_for(browser, lambda d: idle(d) and css(d, '.an-hand-card[data-card="128"]'))

    click(browser, css(browser, '.an-display-slot[data-slot="dragon:0"]')[0])  # empties the first display slot
    wait_for(browser, lambda d: idle(d) and css(d, '.an-display-slot[data-slot="dragon:0"]')[0].text
             == "Put 128 here")  # the dragon typed would go there; with the box empty, the deck's top card
    css(browser, "#an-dragon")[0].send_keys(Keys.BACKSPACE * 3)
    wait_for(browser, lambda d: css(d, '.an-display-slot[data-slot="dragon:0"]')[0].text == "Fill from the deck")
    click(browser, css(browser, '.an-display-slot[data-slot="dragon:0"]')[0])  # and fills it again
    wait_for(browser, lambda d: idle(d) and css(d, '.an-display-slot[data-slot="dragon:0"]')[0].text == "Take out ×")
    # A cave card of the display goes, and comes back from the deck.
    click(browser, css(browser, '.an-display-slot[data-slot="cave:1"]')[0])
    wait_for(browser, lambda d: idle(d) and css(d, '.an-display-slot[data-slot="cave:1"]')[0].text
             == "Fill from the deck")

    click(browser, css(browser, ".an-round-more")[0])
    wait_for(browser, lambda d: idle(d) and "round 2" in css(d, ".an-summary")[0].text)

    # Player 2 passes (the player to move cannot have passed: the board asks them for their action).
    click(browser, css(browser, "#an-seats button")[1])
    wait_for(browser, lambda d: css(d, ".an-passed") and "Player 2" in css(d, ".an-passed")[0].text)
    click(browser, css(browser, ".an-passed")[0])
    wait_for(browser, lambda d: idle(d) and css(d, ".an-passed")[0].get_attribute("aria-pressed") == "true")
    assert "passed" in css(browser, "#an-seats button")[1].text

    click(browser, css(browser, "#an-seats button")[0])
    wait_for(browser, lambda d: css(d, '.an-hand-card[data-card="128"]'))
    click(browser, css(browser, '.an-hand-card[data-card="128"]')[0])
    wait_for(browser, lambda d: idle(d) and not css(d, ".an-hand-card"))

    # The forms stay for typing (and for a keyboard without pointing): opened, typed into, applied.
    click(browser, css(browser, "#an-forms summary")[0])
    coins = css(browser, "#an-supply input[name=coins]")[0]
    coins.clear()
    coins.send_keys("5")
    click(browser, css(browser, "#an-supply button[type=submit]")[0])
    wait_for(browser, lambda d: idle(d) and "5 coins" in css(d, ".an-summary")[0].text)


def test_the_display_has_its_own_heading_and_the_academy_income_spaces_read_apart(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/?p=" + '{"setup":{"players":2,"seed":3,"academy":true},"edits":[]}')
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d) and css(d, ".match-income-list li"))
    titles = [h.text for h in css(browser, ".match-display-title")]
    assert titles == ["Display"]
    spaces = css(browser, ".match-income-list li")
    assert len(spaces) >= 2
    text = css(browser, ".match-income-list")[0].text
    assert "coins.2." not in text.replace(" ", "") and len(text.splitlines()) >= len(spaces)  # one line a space
