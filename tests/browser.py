"""One way to start Debian's headless Chromium for the real-browser tests, skipping with the reason when absent."""
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--no-first-run")


def start_chromium(window_size="1200,900"):
    """A new driver; the caller quits it."""
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("headless Chromium not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + (f"--window-size={window_size}",):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    return driver


def open_chromium(window_size="1200,900"):
    """For a fixture: `yield from open_chromium(...)` gives a driver and quits it afterwards."""
    driver = start_chromium(window_size)
    try:
        yield driver
    finally:
        driver.quit()


def by(selector):
    from selenium.webdriver.common.by import By
    return By.CSS_SELECTOR, selector


def css(driver, selector):
    """Every element matching a CSS selector now (no implicit wait)."""
    return driver.find_elements(*by(selector))


def click(driver, element):
    """Scroll an element to the middle of the window and click it, as a person would after scrolling to it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def replaced_mid_read(exc):
    """True when the driver's error only says the element was replaced by a re-render while it was being read."""
    from selenium.common.exceptions import StaleElementReferenceException
    return isinstance(exc, (StaleElementReferenceException, IndexError)) or (
        "does not belong to the document" in str(exc))


def wait_for(driver, condition, timeout=20):
    """Wait until `condition(driver)` is truthy and return it. Pages re-render as they poll, so an element found a
    moment ago may be gone when read: Chromium's driver says so as a stale element or, when the node was swapped
    inside one inspector call, as "node ... does not belong to the document". Either means "not yet", never a failure
    of the page; any other error is raised at once."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def attempt(d):
        try:
            return condition(d)
        except (WebDriverException, IndexError) as exc:
            if replaced_mid_read(exc):
                return False
            raise
    return WebDriverWait(driver, timeout).until(attempt)


def wait_for_path(driver, path, timeout=20):
    """Wait until the window's address has this path. A form page's own address may end like its destination
    (`/accounts/signup/?next=/matches/`), so comparing the end of the address would pass before the form was sent."""
    from urllib.parse import urlparse
    return wait_for(driver, lambda d: urlparse(d.current_url).path == path, timeout)
