"""A person on a phone-sized headless Chromium asks the strong bot for its choice on the analysis board: the page
shows that it is thinking, then the preferred option's label and an estimate for each option searched; the
choice can be taken as the branch's next step."""
import pytest

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser():
    yield from open_chromium("390,844")


def idle(driver):
    return "an-busy" not in css(driver, "#analysis")[0].get_attribute("class")


def test_ask_the_strong_bot_and_see_its_choice_and_estimates(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-options button") and idle(d))
    offered = [b.text for b in css(browser, ".an-options button")]
    assert "Player 1" in css(browser, "#an-engine-status")[0].text

    # Slow the request down a little in the page, so the progress shown while it thinks can be seen.
    browser.execute_script("""
        var real = window.fetch;
        window.fetch = function (url, init) {
          return new Promise(function (ok) { setTimeout(ok, 600); }).then(function () { return real(url, init); });
        };""")
    click(browser, css(browser, "#an-engine-ask")[0])
    wait_for(browser, lambda d: "Thinking for Player 1" in css(d, "#an-engine-status")[0].text)
    assert css(browser, "#an-engine-progress")[0].is_displayed()
    assert not css(browser, "#an-engine-ask")[0].is_enabled()

    wait_for(browser, lambda d: css(d, ".an-engine-best strong"), timeout=60)
    assert not css(browser, "#an-engine-progress")[0].is_displayed()
    best = css(browser, ".an-engine-best strong")[0].text
    assert any(text.startswith(best) for text in offered), (best, offered)
    rows = [li.text for li in css(browser, ".an-engine-list li")]
    assert rows and all("VP ahead" in row and "wins" in row and "playout" in row for row in rows)
    assert css(browser, ".an-engine-top")[0].text.startswith(best)

    # Taking its choice is a step of the branch; the new question clears the old answer.
    click(browser, css(browser, "#an-engine-take")[0])
    wait_for(browser, lambda d: idle(d) and not css(d, ".an-engine-best"))
    assert css(browser, ".an-steps > li")[-1].text.startswith("Player 1: " + best)
    assert css(browser, "#an-engine-ask")[0].is_enabled() == bool(css(browser, ".an-options button"))
    wide = browser.execute_script("""
        return Array.from(document.querySelectorAll('body *')).filter(function (e) {
          return e.getBoundingClientRect().right > window.innerWidth + 1; }).map(function (e) {
          return e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right); });""")
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), wide


def playouts_in_all(driver):
    note = css(driver, ".an-engine-note")[0].text
    return int(note.split(" playouts in all")[0].rsplit(" ", 1)[-1])


def test_the_bot_shows_its_uncertainty_and_can_be_asked_to_think_longer(browser, live_server, catalogue):
    from selenium.webdriver.support.ui import Select

    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-options button") and idle(d))
    Select(css(browser, "#an-engine-form select[name=budget]")[0]).select_by_value("0.25")
    click(browser, css(browser, "#an-engine-ask")[0])
    wait_for(browser, lambda d: css(d, ".an-engine-best strong"), timeout=60)
    rows = [li.text for li in css(browser, ".an-engine-list li")]
    assert all("playout" in row and ("95 % between" in row or "too few playouts" in row) for row in rows), rows
    assert "settled" in css(browser, ".an-engine-settled")[0].text.lower()
    before = playouts_in_all(browser)

    click(browser, css(browser, "#an-engine-longer")[0])
    wait_for(browser, lambda d: "(0.5 s)" in css(d, "#an-engine-status")[0].text and css(d, ".an-engine-best strong"),
             timeout=60)
    assert playouts_in_all(browser) > before
    assert css(browser, "#an-engine-form select[name=budget]")[0].get_attribute("value") == "0.5"
    assert css(browser, "#an-engine-longer")[0].text == "Think longer (1 s)"
