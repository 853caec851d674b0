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
