"""A person on a phone-sized headless Chromium picks a card, runs its ability and clicks through its decisions."""

import pytest

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def browser():
    yield from open_chromium("412,915")


def watch_spinner(driver):
    """Record whether the page ever shows its spinner (the busy class) from now on."""
    driver.execute_script("""
        window.ckSpun = false;
        var root = document.getElementById('checker');
        new MutationObserver(function () { if (root.classList.contains('ck-busy')) window.ckSpun = true; })
            .observe(root, {attributes: true, attributeFilter: ['class']});""")


def test_pick_a_card_run_it_and_click_through_a_decision(browser, live_server, catalogue):
    browser.get(live_server.url + "/checker/")
    card = css(browser, "#ck-card")[0]
    card.send_keys("Calm Loch Serpent")
    click(browser, css(browser, "input[name=at_eggs]")[0])  # leaving the card field loads its abilities
    wait_for(browser, lambda d: "If activated" in css(d, "#ck-ability option")[0].text)

    # The situation: the serpent in the Golden Grotto beside a dragon with room for eggs.
    browser.execute_script("""
        var f = document.getElementById('checker-form');
        f.at_cave.value = 'golden_grotto'; f.at_column.value = '1';
        f.d0_card.value = 'Green Ghost'; f.d0_cave.value = 'golden_grotto'; f.d0_column.value = '2';""")
    watch_spinner(browser)
    click(browser, css(browser, "#ck-run")[0])
    wait_for(browser, lambda d: css(d, ".ck-pending .ck-option"))
    assert "Use Calm Loch Serpent" in css(browser, ".ck-pending .ck-prompt")[0].text
    assert browser.execute_script("return window.ckSpun")
    assert "card=Calm+Loch+Serpent" in browser.current_url

    yes = next(a for a in css(browser, ".ck-option") if a.text == "Yes")
    click(browser, yes)
    wait_for(browser, lambda d: "Lay an egg" in css(d, ".ck-pending .ck-prompt")[0].text)
    labels = [a.text for a in css(browser, ".ck-option")]
    assert labels == ["Lay on Golden Grotto space 1 (Calm Loch Serpent)", "Lay on Golden Grotto space 2 (Green Ghost)"]
    refused = " ".join(li.text for li in css(browser, ".ck-not li"))
    assert "this ability lays eggs on dragons" in refused  # the nests have room, but this egg goes on a dragon
    assert "d=yes" in browser.current_url

    click(browser, css(browser, ".ck-option")[1])
    wait_for(browser, lambda d: css(d, ".ck-done"))
    steps = [li.text for li in css(browser, ".ck-change")]
    assert any("eggs on Green Ghost (Golden Grotto 2) 0 → 1" in s for s in steps)
    # Nothing on the page is wider than the phone's screen.
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")

    # Back to an earlier step, then the browser's own back button.
    click(browser, css(browser, ".ck-back")[1])
    wait_for(browser, lambda d: "Lay an egg" in css(d, ".ck-pending .ck-prompt")[0].text)
    browser.back()
    wait_for(browser, lambda d: css(d, ".ck-done"))


def test_mistake_in_the_form_is_shown_beside_its_field(browser, live_server, catalogue):
    browser.get(live_server.url + "/checker/?card=Smirking+Ridgeback")
    browser.execute_script("document.getElementById('checker-form').at_cave.value = 'golden_grotto';")
    click(browser, css(browser, "#ck-run")[0])
    wait_for(browser, lambda d: css(d, ".ck-field.has-error"))
    field = css(browser, ".ck-field.has-error")[0]
    assert "does not live in the Golden Grotto" in field.text
    assert not css(browser, ".ck-pending")
