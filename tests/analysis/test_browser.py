"""A person on a phone-sized headless Chromium builds a position by clicking on the drawn mat, asks what
excavating the 4th Crimson space costs, follows one branch, goes back and follows another."""
import pytest

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser():
    yield from open_chromium("412,915")


def space(driver, cave, column):
    return css(driver, f'.an-space[data-cave="{cave}"][data-column="{column}"]')[0]


def idle(driver):
    return "an-busy" not in css(driver, "#analysis")[0].get_attribute("class")


def test_build_by_clicking_ask_a_question_and_follow_two_branches(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))

    # Excavate the Crimson Cavern up to its 3rd space by clicking it.
    click(browser, space(browser, "crimson_cavern", 3))
    wait_for(browser, lambda d: idle(d) and "an-dug" in space(d, "crimson_cavern", 3).get_attribute("class"))
    # Two eggs in the mat nests, some coins and a cave card in hand, through the player's form.
    browser.execute_script("""
        var f = document.getElementById('an-supply');
        f.nest.value = '2'; f.coins.value = '3'; f.caves.value = '2';""")
    click(browser, css(browser, "#an-supply button[type=submit]")[0])
    wait_for(browser, lambda d: idle(d) and "2 eggs in mat nests" in css(d, ".an-summary")[0].text)

    # The question: what does the 4th Crimson space cost? The option says it.
    options = [b.text for b in css(browser, ".an-options button")]
    crimson = next(text for text in options if "Excavate the Crimson Cavern" in text)
    assert "costs 1 coin, 2 egg" in crimson

    # Branch 1: excavate it, and take the cave card's benefit first.
    click(browser, next(b for b in css(browser, ".an-options button") if "Excavate the Crimson Cavern" in b.text))
    wait_for(browser, lambda d: idle(d) and "4th column" in css(d, ".an-question h3")[0].text)
    assert "an-dug" in space(browser, "crimson_cavern", 4).get_attribute("class")
    assert "0 eggs in mat nests" in css(browser, ".an-summary")[0].text

    # Branch 2: back to the first step, and explore instead.
    click(browser, css(browser, ".an-steps .an-back")[0])
    wait_for(browser, lambda d: idle(d) and len(css(d, ".an-branches li")) == 2)
    click(browser, next(b for b in css(browser, ".an-options button") if "Explore the Golden Grotto" in b.text))
    wait_for(browser, lambda d: idle(d) and any("Explore the Golden Grotto" in li.text
                                                 for li in css(d, ".an-steps li")))
    assert "an-dug" not in space(browser, "crimson_cavern", 4).get_attribute("class")
    # Branch 1 is still there, one click away.
    click(browser, css(browser, ".an-branches button")[0])
    wait_for(browser, lambda d: idle(d) and "an-dug" in space(d, "crimson_cavern", 4).get_attribute("class"))
    # A guild marker by the markers form, then the round's end tried for everyone.
    click(browser, css(browser, '#an-marks button[value="marker"]')[0])
    wait_for(browser, lambda d: idle(d) and "Guild markers: row 1 square 1" in css(d, ".an-summary")[1].text)
    click(browser, css(browser, '#an-try button[value="round"]')[0])
    wait_for(browser, lambda d: idle(d) and "round 1 ends" in css(d, ".an-steps li")[0].text)
    # The refused options name their rule, and the position shares by link; the page fits the phone.
    assert "p=" in browser.current_url
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_an_empty_table_edited_by_clicks_on_hand_display_round_and_passing(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    click(browser, css(browser, "#an-empty")[0])
    wait_for(browser, lambda d: idle(d) and "0 coins" in css(d, ".an-summary")[0].text
             and "hand: none" in css(d, ".an-summary")[0].text)

    css(browser, "#an-dragon")[0].send_keys("128")
    click(browser, css(browser, ".an-hand-add")[0])
    wait_for(browser, lambda d: idle(d) and css(d, '.an-hand-card[data-card="128"]'))

    click(browser, css(browser, '.an-display-slot[data-slot="0"]')[0])  # empties the first display slot
    wait_for(browser, lambda d: idle(d) and css(d, '.an-display-slot[data-slot="0"]')[0].text == "empty slot")

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
