"""axe-core, the accessibility checker, finds nothing to fix on the site's main pages at a desktop's and a phone's
size, in headless Chromium.

axe-core comes from the npm registry (CI runs `npm install --no-save --no-package-lock --prefix . axe-core@4.14.1`
at the top of the repository); without it the test skips, saying so. It is injected through WebDriver, which the page's Content-Security-Policy does not govern."""
import json
import os
from pathlib import Path

import pytest

from tests.browser import css, start_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("WYRMDEX_AXE") or ROOT / "node_modules" / "axe-core" / "axe.min.js")
PASSWORD = "a-long-test-password"
SIZES = {"desktop": "1366,900", "phone": "390,844"}

# Each page, what shows that its scripts have drawn it (axe must see the page a person sees, not its shell), and
# what a person clicks first, if anything.
PAGES = {
    "home": ("/", "main", None),
    "search": ("/cards/", "#search-status[data-state=ready]", None),
    "card": ("/cards/dragons/1/", "h1.card-name", None),
    "analysis": ("/analysis/", "#an-hand button", None),
    "calculator": ("/calculator/", "#calc-form", None),
    "calculator-card-by-card": ("/calculator/", "#calc-form", "input[name=mode][value=card]"),
    "rules": ("/rules/", "main h1", None),
    "records": ("/records/", "#rec-text", None),
}


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.exists():
        pytest.skip(f"axe-core not found at {AXE}: run `npm install --no-save --no-package-lock --prefix . "
                    "axe-core@4.14.1` at the top of the repository (CI does), or set WYRMDEX_AXE to an axe.min.js")
    return AXE.read_text()


@pytest.fixture(params=sorted(SIZES))
def browser(request):
    driver = start_chromium(SIZES[request.param])
    yield driver
    driver.quit()


def violations(driver, axe_source):
    """axe-core's violations on the page as it is now, one readable line per rule and element."""
    driver.execute_script(axe_source)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)),"
        " e => done(JSON.stringify([{id: 'axe-error', help: String(e), nodes: []}])));")
    return [f"{v['id']} ({v['help']}): {node['target']} {node.get('failureSummary', '')}"
            for v in json.loads(result) for node in (v["nodes"] or [{"target": "", "failureSummary": ""}])]


def visit(driver, url, ready):
    driver.set_script_timeout(60)
    driver.get(url)
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete" and css(d, ready))


@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_page_has_no_accessibility_violation(axe_source, browser, live_server, catalogue, page):
    path, ready, click = PAGES[page]
    visit(browser, live_server.url + path, ready)
    if click:
        css(browser, click)[0].click()
    found = violations(browser, axe_source)
    assert not found, "\n".join(found)


def test_a_match_page_has_no_accessibility_violation(axe_source, browser, live_server, catalogue):
    from django.contrib.auth import get_user_model

    from game.matches import services
    from game.models import Match
    from tests.matches.conftest import play_randomly
    from tests.matches.test_browser_async import sign_in

    users = get_user_model().objects
    ann, ben = users.create_user("ann", password=PASSWORD), users.create_user("ben", password=PASSWORD)
    match = services.create_match(ann, players=2, private=True)  # private: its board shows the watch link too
    services.join_match(match.pk, ben, invited=True)
    match = play_randomly(match.pk, 40, seed=3)  # past the set-up: a mat with cards, a hand, a log
    state = services.load_state(Match.objects.get(pk=match.pk))
    seated = ann if state.pending is None or state.pending.player == 0 else ben
    sign_in(browser, live_server.url, seated.username, f"/matches/{match.public_id}/")
    visit(browser, f"{live_server.url}/matches/{match.public_id}/", "#hand .match-card")
    assert css(browser, "#watch-link")
    found = violations(browser, axe_source)
    assert not found, "\n".join(found)
