"""A player with the match open in two tabs, in headless Chromium: a move made in one tab shows the other tab it is
behind only when its own move is refused; the page reloads then, and the refusal must still be read on it."""
import pytest

from game.matches import services

from .conftest import pending
from .test_browser import by, text_of, wait_for
from .test_browser_async import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_refused_because_another_tab_moved_first_stays_explained(open_browser, live_server, started, alice):
    seat, _, options = pending(started)
    kind = options[0]["kind"]
    assert seat == 0  # alice chooses first
    tab = open_browser("1200,900")
    sign_in(tab, live_server.url, "alice", f"/matches/{started.public_id}/")
    wait_for(tab, lambda d: d.find_elements(*by(f'.match-option[data-kind="{kind}"]')))
    # The tab stops looking (as a tab in the background does); the first move of the match is made in another.
    tab.execute_script("Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                       "window.sameTabPage = true")
    services.submit_decision(started.pk, alice, 0, options[0])
    button = tab.find_element(*by(f'.match-option[data-kind="{kind}"]'))
    # the setup's pairs are a list folded beside the hand's cards: unfolded, as a person would
    tab.execute_script("const f = arguments[0].closest('details'); if (f) f.open = true;", button)
    button.click()
    # The first move takes the abort button away, which the server draws: the page reloads to show that ...
    wait_for(tab, lambda d: d.execute_script("return window.sameTabPage === undefined"))
    # ... and the reason the move was refused is still on it.
    wait_for(tab, lambda d: "moved on to version 1" in text_of(d, "#decision-error"))
    assert tab.find_element(*by("#decision-error")).is_displayed()
    assert not tab.find_elements(*by("#abort-button"))
