"""An editor in a real (headless Chromium) browser: from the Dragon list to the import page, a bad file, a good one."""
import json

import pytest

from cardsite.catalogue.models import Dragon
from tests.browser import open_chromium

pytestmark = pytest.mark.browser

@pytest.fixture
def browser():
    yield from open_chromium("1200,900")


def test_editor_imports_a_fan_card_after_a_refused_file(browser, live_server, catalogue, django_user_model, tmp_path):
    from selenium.webdriver.common.by import By

    django_user_model.objects.create_superuser("editor", "editor@example.com", "a-long-password-1")
    browser.get(live_server.url + "/admin/login/?next=/admin/cardsite/dragon/")
    browser.find_element(By.NAME, "username").send_keys("editor")
    browser.find_element(By.NAME, "password").send_keys("a-long-password-1")
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()

    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: "/admin/cardsite/dragon/" in d.current_url)
    browser.find_element(By.CSS_SELECTOR, ".object-tools a[href$='/dragon/import/']").click()
    # A click starts a page load without waiting for it: wait for what the next page shows before reading it.
    shown = lambda selector: WebDriverWait(browser, 10).until(  # noqa: E731
        lambda d: d.find_elements(By.CSS_SELECTOR, selector))[0]
    shown("#catalogue-import")
    bad = tmp_path / "bad.csv"
    bad.write_text("number,printing,expansion\n950,original,base\n")
    browser.find_element(By.NAME, "file").send_keys(str(bad))
    browser.find_element(By.CSS_SELECTOR, "#catalogue-import input[type=submit]").click()
    assert "missing column 'abilities'" in shown("#import-errors").text
    assert not Dragon.objects.filter(number=950).exists()

    good = tmp_path / "fan.json"
    good.write_text(json.dumps({"dragons": [{
        "number": 950, "printing": "original", "name": "Browser Wyrmling", "expansion": "base", "vp": 2,
        "size": "small", "trait": "shy", "capacity": 1, "cost": {"milk": 1}, "habitats": ["amethyst_abyss"],
        "abilities": [{"kind": "when_played", "effect": {"do": "lay_egg", "count": 2}}]}]}))
    browser.find_element(By.NAME, "file").send_keys(str(good))
    browser.find_element(By.CSS_SELECTOR, "#catalogue-import input[type=submit]").click()
    assert "Imported fan.json: 1 created" in shown(".messagelist").text
    assert Dragon.objects.get(number=950).ability_kind == "when_played"
