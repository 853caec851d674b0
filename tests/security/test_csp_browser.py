"""Every kind of page still works under the Content-Security-Policy: headless Chromium loads each one and reports no
refused script, style, font, image or worker (the console names each CSP violation)."""
import pytest

from tests.browser import open_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = ["/", "/cards/", "/cards/?q=cave:golden", "/cards/help/", "/cards/dragons/1/", "/cards/caves/1/",
         "/cards/guilds/", "/cards/guilds/1/", "/cards/objectives/", "/cards/objectives/1/", "/rules/",
         "/checker/", "/checker/?card=Smirking+Ridgeback&d=yes", "/calculator/", "/matches/", "/accounts/login/",
         "/accounts/signup/", "/api/docs/", "/api/redoc/", "/api/dragons/?format=api", "/no-such-page/",
         "/calculator/?from=%00"]
ADMIN_PAGES = ["/admin/", "/admin/cardsite/dragon/", "/admin/cardsite/dragon/1/change/", "/admin/cardsite/dragon/import/",
               "/admin/cardsite/guildtile/1/change/", "/calculator/history/", "/matches/"]


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver  # noqa: F401 (open_chromium skips when Chromium is missing)
    yield from open_chromium("390,844")


# ReDoc's sidebar links its maker with a logo from their CDN; the policy keeps it from loading (a missing logo in
# the sidebar's footer), which is what the policy is for.
ALLOWED_REFUSALS = ("https://cdn.redoc.ly/redoc/logo-mini.svg",)


def violations(driver):
    return [entry["message"] for entry in driver.get_log("browser")
            if ("Content Security Policy" in entry["message"] or "Refused to" in entry["message"])
            and not any(url in entry["message"] for url in ALLOWED_REFUSALS)]


def visit(driver, url):
    from selenium.webdriver.support.ui import WebDriverWait
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    if "/api/redoc/" in url or "/api/docs/" in url:  # both draw the page from the schema after loading it
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(
            "return !!document.querySelector('.api-content, .swagger-ui .opblock')"))
    return violations(driver)


@pytest.mark.parametrize("path", PAGES)
def test_a_visitors_page_breaks_no_rule_of_the_policy(browser, live_server, catalogue, path):
    assert visit(browser, live_server.url + path) == []


def test_an_editors_pages_break_no_rule_of_the_policy(browser, live_server, catalogue, django_user_model):
    django_user_model.objects.create_superuser("editor", "editor@example.org", "a-long-test-password")
    from selenium.webdriver.common.by import By
    browser.get(live_server.url + "/admin/login/")
    browser.find_element(By.NAME, "username").send_keys("editor")
    browser.find_element(By.NAME, "password").send_keys("a-long-test-password")
    browser.find_element(By.CSS_SELECTOR, "[type=submit]").click()
    for path in ADMIN_PAGES:
        assert visit(browser, live_server.url + path) == [], path
        assert "/login/" not in browser.current_url, path
