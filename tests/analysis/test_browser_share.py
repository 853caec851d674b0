"""A shared link in headless Chromium on a 390x844 phone: it restores the whole line (the position, what was tried,
every branch and the branch shown), and the answer is brought into view where the table pushes it far down."""
import pytest

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POSITION = '{"setup":{"players":2,"seed":1},"edits":[],"seat":0}'


@pytest.fixture
def phone():
    for driver in open_chromium("390,844"):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        yield driver


def idle(driver):
    return "an-busy" not in css(driver, "#analysis")[0].get_attribute("class")


def in_view(driver, selector):
    return driver.execute_script("""
        var r = document.querySelector(arguments[0]).getBoundingClientRect();
        return r.top >= -1 && r.top < window.innerHeight;""", selector)


def top_of(driver, selector):
    return driver.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().top "
                                 "+ window.scrollY", selector)


def explore_buttons(driver):
    return [b for b in css(driver, '.an-options button[data-kind="explore"]')]


def test_a_shared_link_restores_the_try_the_branches_and_brings_the_answer_into_view(phone, live_server, catalogue):
    phone.get(live_server.url + "/analysis/?p=" + POSITION)
    wait_for(phone, lambda d: idle(d) and explore_buttons(d))
    assert top_of(phone, "#an-question") > 2000  # the table comes first on a phone: the answer is far below

    # Branch 1: explore the first cave offered; branch 2: back to the start, explore another.
    first = explore_buttons(phone)[0].text
    click(phone, explore_buttons(phone)[0])
    wait_for(phone, lambda d: idle(d) and len(css(d, ".an-steps > li")) == 2)
    assert in_view(phone, "#an-question")  # the next question is in view after the choice
    click(phone, css(phone, ".an-steps .an-back")[0])
    wait_for(phone, lambda d: idle(d) and len(css(d, ".an-branches li")) == 2 and explore_buttons(d))
    second = explore_buttons(phone)[1].text
    click(phone, explore_buttons(phone)[1])
    wait_for(phone, lambda d: idle(d) and len(css(d, ".an-steps > li")) == 2)
    steps = [li.text for li in css(phone, ".an-steps > li")]
    link = css(phone, "#an-share-line")[0].get_attribute("href")
    assert "line=" in link and link == phone.current_url

    # Opened afresh (at the top of the page), the link shows the same line, and the answer is in view.
    phone.get("about:blank")
    phone.get(link)
    wait_for(phone, lambda d: idle(d) and len(css(d, ".an-steps > li")) == 2)
    assert [li.text for li in css(phone, ".an-steps > li")] == steps
    assert second.split(" —")[0] in steps[1] and first.split(" —")[0] not in steps[1]
    branches = css(phone, ".an-branches li")
    assert len(branches) == 2 and "an-current" in branches[1].get_attribute("class")
    assert in_view(phone, "#an-question")
    assert phone.execute_script("return window.scrollY") > 2000

    # The other branch is one click away, as it was.
    click(phone, css(phone, ".an-branches button")[0])
    wait_for(phone, lambda d: idle(d) and first.split(" —")[0] in css(d, ".an-steps > li")[1].text)


def test_a_link_with_a_tried_ability_restores_it(phone, live_server, catalogue):
    line = '{"try":{"seat":0,"card":130},"branches":[[]],"current":0}'
    position = '{"setup":{"players":2,"seed":1},"edits":[{"do":"dragon","seat":0,"card":130,"cave":"crimson","column":1}]}'
    phone.get(live_server.url + "/analysis/?p=" + position + "&line=" + line)
    wait_for(phone, lambda d: idle(d) and css(d, ".an-steps > li"))
    assert "ability" in css(phone, ".an-steps > li")[0].text
    assert in_view(phone, "#an-question")


def test_a_link_whose_line_is_refused_opens_its_position_and_says_why(phone, live_server, catalogue):
    line = '{"branches":[[{"kind":"explore","args":[7]}]],"current":0}'
    phone.get(live_server.url + "/analysis/?p=" + POSITION + "&line=" + line)
    wait_for(phone, lambda d: idle(d) and not css(d, "#an-errors")[0].get_attribute("hidden")
             and "could not be replayed" in css(d, "#an-errors")[0].text)
    assert css(phone, ".an-space")
