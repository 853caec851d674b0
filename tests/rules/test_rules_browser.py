"""A person reading the rules reference in headless Chromium: jumps from the contents, lands on a linked term."""

import pytest

from tests.browser import open_chromium

pytestmark = pytest.mark.browser

@pytest.fixture
def browser():
    yield from open_chromium("1200,900")


def _top_of(driver, element_id):
    return driver.execute_script(f"return document.getElementById('{element_id}').getBoundingClientRect().top")


def test_contents_link_scrolls_the_section_into_view(browser, live_server):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/rules/")
    assert _top_of(browser, "cache") > 900  # far below the fold at first
    browser.find_element(By.CSS_SELECTOR, '.rules-toc a[href="#cache"]').click()
    assert browser.current_url.endswith("/rules/#cache")
    assert 0 <= _top_of(browser, "cache") < 100


def test_keyword_link_from_another_page_lands_on_its_term(browser, live_server):
    from game.rules import rules_anchor

    browser.get(live_server.url + rules_anchor("train"))
    assert 0 <= _top_of(browser, "train") < 100
    highlighted = browser.execute_script(
        "return getComputedStyle(document.getElementById('train')).backgroundColor")
    assert highlighted not in ("rgba(0, 0, 0, 0)", "transparent")  # :target marks where the reader landed


def test_page_fits_a_phone_without_sideways_scrolling(browser, live_server):
    browser.set_window_size(390, 844)
    browser.get(live_server.url + "/rules/")
    overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
