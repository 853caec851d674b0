"""A person at the search page in a real (headless Chromium) browser: types, reads results, opens a card, filters."""
from urllib.parse import unquote

import pytest

from cardsite.catalogue.models import Dragon
from tests.browser import open_chromium, wait_for

from .conftest import uses

pytestmark = pytest.mark.browser

@pytest.fixture
def browser():
    yield from open_chromium("1200,900")


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


def ready(driver):
    from selenium.webdriver.common.by import By
    wait_for(driver, lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") in ("ready", "done"))


def listed(driver, kind):
    from selenium.webdriver.common.by import By
    links = driver.find_elements(By.CSS_SELECTOR, f"#{kind}-results .result a.result-title")
    return [link.get_attribute("href").rstrip("/").rsplit("/", 1)[-1] for link in links]


def test_show_more_lists_every_dragon_past_the_first_60(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    everything = list(Dragon.objects.order_by("number", "printing").values_list("slug", flat=True))
    assert len(everything) > 180
    browser.get(live_server.url + "/cards/")
    ready(browser)
    assert len(listed(browser, "dragon")) == 60
    more = browser.find_element(By.ID, "dragon-more")
    assert more.is_displayed() and f"({len(everything) - 60} not shown yet)" in more.text
    clicks = 0
    while more.is_displayed():
        shown = len(listed(browser, "dragon"))
        more.click()
        wait_for(browser, lambda d: len(listed(d, "dragon")) > shown)
        clicks += 1
    assert clicks == (len(everything) - 1) // 60
    assert listed(browser, "dragon") == everything


def test_show_more_after_a_query_adds_the_rest_of_its_results(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    medium = list(Dragon.objects.filter(size="medium").order_by("number", "printing").values_list("slug", flat=True))
    assert len(medium) > 60
    browser.get(live_server.url + "/cards/")
    ready(browser)
    browser.find_element(By.ID, "q").send_keys("size:medium")
    wait_for(browser, lambda d: d.find_element(By.ID, "dragon-count").text == str(len(medium)))
    browser.find_element(By.ID, "dragon-more").click()
    wait_for(browser, lambda d: len(listed(d, "dragon")) == len(medium))
    assert listed(browser, "dragon") == medium
    assert not browser.find_element(By.ID, "dragon-more").is_displayed()


def test_type_toggle_shows_one_kind_of_card_and_works_from_the_keyboard(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from cardsite.catalogue.models import GuildTile

    browser.get(live_server.url + "/cards/?q=egg")
    ready(browser)
    groups = {kind: browser.find_element(By.ID, f"{kind}-group") for kind in ("dragon", "cave", "guild", "objective")}
    assert all(group.is_displayed() for group in groups.values())
    # From the search box, Tab reaches the toggle; arrow keys move along it as in any radio group.
    box = browser.find_element(By.ID, "q")
    box.click()
    for _ in range(6):
        box = browser.switch_to.active_element
        if box.get_attribute("name") == "type":
            break
        box.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("value") == "all"
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, lambda d: not groups["cave"].is_displayed())
    assert groups["dragon"].is_displayed() and not groups["guild"].is_displayed()
    assert "type=dragon" in browser.current_url
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_for(browser, lambda d: groups["guild"].is_displayed())
    assert not groups["dragon"].is_displayed()
    guilds = [tile.slug for tile in GuildTile.objects.all()
              if any("egg" in row.text.lower() for row in tile.guild_abilities.all())]
    assert guilds and sorted(listed(browser, "guild")) == sorted(guilds)
    assert browser.find_element(By.ID, "guild-count").text == str(len(guilds))


def test_an_error_greys_out_the_old_results_and_blanks_their_counts(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/cards/")
    ready(browser)
    box = browser.find_element(By.ID, "q")
    box.send_keys("tuck")
    tucks = str(sum(1 for d in Dragon.objects.all() if "tuck" in (d.name + " " + d.ability_text).lower()))
    wait_for(browser, lambda d: d.find_element(By.ID, "dragon-count").text == tucks)
    box.send_keys(" vp>=")
    results = browser.find_element(By.ID, "results")
    wait_for(browser, lambda d: "stale" in results.get_attribute("class"))
    assert browser.find_element(By.ID, "dragon-count").text == "–"
    assert "cannot be read" in browser.find_element(By.ID, "search-status").text
    error = browser.find_element(By.ID, "search-error")
    wait_for(browser, lambda d: error.is_displayed())
    assert "needs a value" in error.text
    box.send_keys("3")
    wait_for(browser, lambda d: "stale" not in results.get_attribute("class"))
    assert not error.is_displayed()
    assert browser.find_element(By.ID, "dragon-count").text != "–"


def test_no_error_flashes_while_a_good_query_is_typed(browser, live_server, catalogue):
    import time

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(live_server.url + "/cards/")
    ready(browser)
    # Record every moment the error banner is shown, however briefly.
    browser.execute_script("""
        window.errorShown = [];
        const box = document.getElementById('search-error');
        new MutationObserver(() => { if (!box.hidden) window.errorShown.push(box.textContent); })
          .observe(box, {attributes: true, childList: true, characterData: true, subtree: true});
    """)
    box = browser.find_element(By.ID, "q")
    box.click()
    # A typist's pace, one key every 150 ms, timed inside the page (WebDriver round trips are slower than a person
    # under load): each keystroke fires the same input event a key press does and gets its own answer.
    browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const box = document.getElementById('q');
        const text = 'cave:golden does:tuck';
        let i = 0;
        const next = () => {
          if (i === text.length) return done();
          box.value += text[i++];
          box.dispatchEvent(new Event('input', {bubbles: true}));
          setTimeout(next, 150);
        };
        next();
    """)
    expected = sorted(d.slug for d in Dragon.objects.filter(golden_grotto=True) if uses(d, "tuck"))
    wait_for(browser, lambda d: d.find_element(By.ID, "dragon-count").text == str(len(expected)))
    time.sleep(1)  # longer than the pause after which an error would show
    assert browser.execute_script("return window.errorShown") == []
    assert shown_slugs(browser) == expected
    # A query that stays wrong shows its error once, after the pause.
    box.send_keys(Keys.END, " cave:")
    error = browser.find_element(By.ID, "search-error")
    wait_for(browser, lambda d: error.is_displayed())
    assert "needs a value" in error.text
    assert len(set(browser.execute_script("return window.errorShown"))) == 1


def test_enter_shows_an_error_at_once_and_keyboard_carries_on_after_show_more(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(live_server.url + "/cards/")
    ready(browser)
    box = browser.find_element(By.ID, "q")
    box.send_keys("size:giant", Keys.ENTER)
    error = browser.find_element(By.ID, "search-error")
    wait_for(browser, lambda d: error.is_displayed(), timeout=0.6)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("size:medium", Keys.ENTER)
    wait_for(browser, lambda d: not error.is_displayed())
    more = browser.find_element(By.ID, "dragon-more")
    more.send_keys(Keys.ENTER)  # the link takes the keyboard too
    wait_for(browser, lambda d: len(listed(d, "dragon")) > 60)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("href").rstrip("/").rsplit("/", 1)[-1] == listed(browser, "dragon")[60]


def test_phone_width_shows_icons_rows_and_more_without_sideways_scrolling(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    browser.get(live_server.url + "/cards/?q=size:medium")
    ready(browser)
    assert browser.execute_script("return window.innerWidth") == 390
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    first = browser.find_element(By.CSS_SELECTOR, "#dragon-results .result")
    assert first.find_elements(By.CSS_SELECTOR, ".result-vp .icon-vp")
    assert first.find_elements(By.CSS_SELECTOR, ".result-caves .icon-cave")
    assert first.rect["width"] <= 390
    toggle = browser.find_element(By.ID, "type-toggle")
    assert toggle.rect["x"] + toggle.rect["width"] <= 390
    more = browser.find_element(By.ID, "dragon-more")
    browser.execute_script("arguments[0].scrollIntoView()", more)
    more.click()
    wait_for(browser, lambda d: len(listed(d, "dragon")) == Dragon.objects.filter(size="medium").count())
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390


def test_an_old_error_goes_as_soon_as_the_query_changes(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(live_server.url + "/cards/")
    ready(browser)
    box = browser.find_element(By.ID, "q")
    box.send_keys("vp>", Keys.ENTER)
    error = browser.find_element(By.ID, "search-error")
    wait_for(browser, lambda d: error.is_displayed())
    # One more key, as a key press fires it; the page is asked in the same script, before any answer can come.
    still_shown = browser.execute_script("""
        const box = document.getElementById('q');
        box.value += '=';
        box.dispatchEvent(new Event('input', {bubbles: true}));
        return !document.getElementById('search-error').hidden;""")
    assert not still_shown
    # The query is still wrong: its own error comes back once typing pauses.
    wait_for(browser, lambda d: error.is_displayed())
    assert "needs a value" in error.text


def test_the_result_reached_with_the_arrow_keys_is_said_aloud(browser, live_server, catalogue):
    """Focus stays in the search box while the arrows outline a result, so a screen reader hears of it only through
    a live region (role=status), which names the result and how to open it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(live_server.url + "/cards/")
    wait_for(browser, lambda d: d.find_element(By.ID, "search-status").get_attribute("data-state") == "ready")
    box = browser.find_element(By.ID, "q")
    box.send_keys("cave:golden")
    expected = Dragon.objects.filter(golden_grotto=True).count()
    wait_for(browser, lambda d: d.find_element(By.ID, "dragon-count").text == str(expected))

    box.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    links = browser.find_elements(By.CSS_SELECTOR, ".result-group:not([hidden]) .result a")
    second = browser.find_element(By.CSS_SELECTOR, ".result.selected a")
    assert second == links[1]
    spoken = browser.find_elements(By.CSS_SELECTOR, "[role=status]#search-selected, [aria-live]#search-selected")
    assert spoken, "no live region tells which result the arrow keys reached"
    name = " ".join(second.get_attribute("textContent").split())
    assert spoken[0].get_attribute("textContent") == f"Result 2 of {len(links)}: {name}. Enter opens it."
    assert browser.switch_to.active_element == box  # the person keeps typing where they were

    box.send_keys(Keys.ESCAPE)
    assert spoken[0].get_attribute("textContent") == ""
