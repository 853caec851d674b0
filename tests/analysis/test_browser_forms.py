"""The typing forms in headless Chromium: Apply sends only the boxes changed, so a dragon typed into the hand is not
taken back by the display's old list; edits that contradict each other are refused and the refusal is shown on the
box it names."""
import pytest

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser():
    yield from open_chromium("1200,900")


def idle(driver):
    return "an-busy" not in css(driver, "#analysis")[0].get_attribute("class")


def box(driver, name):
    return css(driver, f"#an-supply [name={name}]")[0]


def retype(driver, name, text):
    field = box(driver, name)
    field.clear()
    field.send_keys(text)


def display_dragons(driver):
    return [int(n) for n in box(driver, "display_dragons").get_attribute("value").replace(" ", "").split(",") if n]


def open_forms(driver, live_server):
    driver.get(live_server.url + "/analysis/")
    wait_for(driver, lambda d: css(d, ".an-space") and idle(d))
    click(driver, css(driver, "#an-forms summary")[0])


def test_a_display_dragon_typed_into_the_hand_stays_in_the_hand(browser, live_server, catalogue):
    open_forms(browser, live_server)
    shown = display_dragons(browser)
    hand = box(browser, "hand").get_attribute("value")
    retype(browser, "hand", f"{hand}, {shown[0]}" if hand else str(shown[0]))
    click(browser, css(browser, "#an-supply button[type=submit]")[0])
    wait_for(browser, lambda d: idle(d) and css(d, f'.an-hand-card[data-card="{shown[0]}"]'))
    assert shown[0] not in display_dragons(browser)
    assert css(browser, "#an-errors")[0].get_attribute("hidden")


def test_a_hand_and_a_display_that_both_hold_a_dragon_are_refused_on_the_display_box(browser, live_server, catalogue):
    open_forms(browser, live_server)
    shown = display_dragons(browser)
    hand = box(browser, "hand").get_attribute("value")
    before = browser.execute_script("return new URL(location).searchParams.get('p')")
    retype(browser, "hand", f"{hand}, {shown[0]}" if hand else str(shown[0]))
    retype(browser, "display_dragons", f"{shown[0]}, {shown[1]}, ")  # the third slot emptied, the first kept
    click(browser, css(browser, "#an-supply button[type=submit]")[0])
    wait_for(browser, lambda d: idle(d) and css(d, "#an-field-error"))
    error = css(browser, "#an-field-error")[0]
    assert "Player 1's hand" in error.text
    assert error.get_attribute("data-field").endswith(".dragons[0]")
    assert box(browser, "display_dragons").get_attribute("aria-invalid") == "true"
    assert box(browser, "hand").get_attribute("aria-invalid") is None
    assert browser.execute_script("return document.activeElement.name") == "display_dragons"
    # Nothing was applied: the position (and its link) is as it was.
    assert browser.execute_script("return new URL(location).searchParams.get('p')") == before
    assert not css(browser, f'.an-hand-card[data-card="{shown[0]}"]')


def test_any_player_exchanges_from_the_try_form_and_the_question_stays(browser, live_server, catalogue):
    import json
    from urllib.parse import quote

    from selenium.webdriver.support.ui import Select

    start = {"setup": {"players": 2, "seed": 1, "academy": False},
             "edits": [{"do": "resources", "seat": 1, "resources": {"meat": 0, "gold": 2, "crystal": 0, "milk": 0}}]}
    browser.get(live_server.url + "/analysis/?p=" + quote(json.dumps(start)))
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    Select(css(browser, "#an-try-seat")[0]).select_by_index(1)
    for pick in css(browser, "#an-exchange-give select"):
        Select(pick).select_by_value("gold")
    Select(css(browser, "#an-exchange-get")[0]).select_by_value("milk")
    click(browser, css(browser, "#an-try button[value=exchange]")[0])
    wait_for(browser, lambda d: idle(d) and "exchanges 2 gold for 1 milk" in d.page_source)
    assert "Player 1: Choose your action" in css(browser, "#an-question h3")[0].text  # seat 0 is still asked
    assert css(browser, "#an-errors")[0].get_attribute("hidden")
