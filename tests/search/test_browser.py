"""A person at the search page in a real (headless Chromium) browser: types, reads results, opens a card, filters."""
from urllib.parse import unquote

import pytest

from tests.browser import open_chromium

from cardsite.models import Dragon

from .conftest import uses

pytestmark = pytest.mark.browser

@pytest.fixture
def browser():
    yield from open_chromium("1200,900")


def wait_for(driver, condition, timeout=10):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def shown_slugs(driver):
    from selenium.webdriver.common.by import By
    links = driver.find_elements(By.CSS_SELECTOR, "#dragon-results .result a")
    return sorted(link.get_attribute("href").rstrip("/").rsplit("/", 1)[-1] for link in links)


def test_type_a_query_open_a_card_and_use_a_filter(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(live_server.url + "/cards/")
    wait_for(browser, lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") == "ready")

    # "/" focuses the search box from anywhere on the page.
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    box = browser.switch_to.active_element
    assert box.get_attribute("id") == "q"

    box.send_keys("cave:golden does:tuck")
    expected = sorted(d.slug for d in Dragon.objects.filter(golden_grotto=True) if uses(d, "tuck"))
    wait_for(browser, lambda d: d.find_element(By.ID, "dragon-count").text == str(len(expected)))
    assert shown_slugs(browser) == expected
    assert "q=cave%3Agolden+does%3Atuck" in browser.current_url or "q=cave:golden" in unquote(browser.current_url)

    # Arrow down twice and Enter opens the second result.
    box.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    second = browser.find_elements(By.CSS_SELECTOR, ".result.selected a")[0]
    target = second.get_attribute("href")
    box.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: d.current_url == target)
    dragon = Dragon.objects.get(slug=target.rstrip("/").rsplit("/", 1)[-1])
    assert browser.find_element(By.CSS_SELECTOR, "h1.card-name").text.startswith(dragon.name)

    # Back at the search page, ticking "Large" writes size:large into the query and narrows the results.
    browser.back()
    wait_for(browser, lambda d: d.find_element(By.ID, "q").get_attribute("value") == "cave:golden does:tuck")
    browser.find_element(By.CSS_SELECTOR, 'input[data-field="size"][value="large"]').click()
    wait_for(browser, lambda d: "size:large" in d.find_element(By.ID, "q").get_attribute("value"))
    narrowed = sorted(slug for slug in expected if Dragon.objects.get(slug=slug).size == "large")
    wait_for(browser, lambda d: d.find_element(By.ID, "dragon-count").text == str(len(narrowed)))
    assert shown_slugs(browser) == narrowed
    assert "size:large" in unquote(browser.current_url.replace("+", " "))


def test_a_bad_query_shows_where_it_broke(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/cards/")
    wait_for(browser, lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") == "ready")
    browser.find_element(By.ID, "q").send_keys("vp>=")
    error = browser.find_element(By.ID, "search-error")
    wait_for(browser, lambda d: error.is_displayed())
    assert "needs a value" in error.text and "character 5" in error.text


def test_phone_layout_puts_results_below_a_closed_filter_panel(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    browser.set_window_size(390, 844)
    browser.get(live_server.url + "/cards/?q=tuck")
    wait_for(browser, lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") == "ready")
    panel = browser.find_element(By.ID, "filter-panel")
    assert panel.get_attribute("open") is None
    results = browser.find_element(By.ID, "dragon-results")
    assert results.location["y"] > panel.location["y"]
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
