"""What the board answers, read in headless Chromium: the final count by category once the game is over."""
import json
from urllib.parse import quote

import pytest

from tests.browser import click, css, open_chromium, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser():
    yield from open_chromium("1200,900")


def idle(driver):
    return "an-busy" not in css(driver, "#analysis")[0].get_attribute("class")


def test_ending_the_game_shows_the_final_score_by_category(browser, live_server, catalogue):
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    assert not css(browser, "#an-final")[0].is_displayed()
    click(browser, css(browser, '#an-try button[value="game"]')[0])
    for _ in range(30):  # any question of the end (an end-game ability) is answered with its first option
        wait_for(browser, lambda d: idle(d) and css(d, "#an-question h3, #an-question p"))
        if not css(browser, ".an-options button"):
            break
        click(browser, css(browser, ".an-options button")[0])
    wait_for(browser, lambda d: idle(d) and css(d, "#an-final-scores"))
    assert css(browser, "#an-final")[0].is_displayed()
    rows = [row.text for row in css(browser, "#an-final-scores tbody th")]
    assert rows[:3] == ["Dragon Guild END GAME markers", "printed VP of dragons on the mat", "end-game abilities"]
    assert len(rows) == 9
    for column in (0, 1):
        cells = [int(row.find_elements("css selector", "td")[column].text)
                 for row in css(browser, "#an-final-scores tbody tr")]
        total = int(css(browser, "#an-final-scores tfoot tr")[0].find_elements("css selector", "td")[column].text)
        assert sum(cells) == total > 0


def test_a_refused_action_never_reads_costs_nothing(browser, live_server, catalogue):
    """Exploring a cave a 4th time in a round is refused: it has no price, and the page says none (not "costs
    nothing"); a refused entice says what it would cost."""
    position = json.dumps({"setup": {"players": 2, "seed": 1},
                           "edits": [{"do": "explored", "seat": 0, "cave": "crimson", "times": 3}], "seat": 0})
    browser.get(live_server.url + "/analysis/?p=" + quote(position))
    wait_for(browser, lambda d: idle(d) and css(d, ".an-refused li"))
    refused = [li.text for li in css(browser, ".an-refused li")]
    explore = next(text for text in refused if "Explore the Crimson Cavern" in text)
    assert "most times allowed" in explore
    assert not [text for text in refused if "costs nothing" in text]
    assert any("it would cost 1 coin" in text for text in refused if "Entice" in text)


def test_a_dragon_put_where_it_cannot_live_is_flagged_on_the_board(browser, live_server, catalogue):
    """Guarding Horned Drake (63) lives in the Golden Grotto and the Amethyst Abyss: put in the Crimson Cavern by a
    click, the board keeps it (a what-if question) and says it breaks a rule, on the mat space too."""
    browser.get(live_server.url + "/analysis/")
    wait_for(browser, lambda d: css(d, ".an-space") and idle(d))
    assert not css(browser, "#an-broken")[0].is_displayed()
    click(browser, css(browser, 'input[name=tool][value="dragon"]')[0])
    css(browser, "#an-dragon")[0].send_keys("63")
    click(browser, css(browser, '.an-space[data-cave="crimson_cavern"][data-column="1"]')[0])
    wait_for(browser, lambda d: idle(d) and css(d, "#an-broken li"))
    warning = css(browser, "#an-broken")[0]
    assert warning.is_displayed()
    assert "breaks a rule" in warning.text and "Guarding Horned Drake (63)" in warning.text
    assert "not the Crimson Cavern" in warning.text
    space = css(browser, '.an-space[data-cave="crimson_cavern"][data-column="1"]')[0]
    assert "an-space-broken" in space.get_attribute("class") and "not its cave" in space.text
    assert css(browser, "#an-broken-note")[0].is_displayed()  # beside the question, too
    # Taken off again, the position breaks nothing and the warning goes.
    click(browser, css(browser, 'input[name=tool][value="remove"]')[0])
    click(browser, css(browser, '.an-space[data-cave="crimson_cavern"][data-column="1"]')[0])
    wait_for(browser, lambda d: idle(d) and not css(d, "#an-broken")[0].is_displayed())
