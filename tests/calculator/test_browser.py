"""A person at a phone-sized headless Chromium (390 x 844) fills in games, scores them and saves them; the entry
effort of docs/calculator.md is measured here."""
import re

import pytest

from game.models import ScoreSheet
from tests.browser import open_chromium, wait_for
from tests.calculator.effort import scenario

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def browser():
    yield from open_chromium("390,844")


class Page:
    """What a person does, counted: a tap to focus a field or press a button, two to pick from a list."""

    def __init__(self, driver):
        self.driver = driver
        self.taps = 0

    def el(self, name):
        from selenium.webdriver.common.by import By
        element = self.driver.find_element(By.NAME, name)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        return element

    def type(self, name, value):
        self.taps += 1
        element = self.el(name)
        element.clear()
        element.send_keys(str(value))

    def choose(self, name, value):
        """Pick a value: a list (select) is two taps, a row of buttons (the objective places) is one."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
        element = self.el(name)
        if element.tag_name == "select":
            self.taps += 2
            Select(element).select_by_value(str(value))
            return
        self.taps += 1
        button = self.driver.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{value}"]')
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()

    def click(self, css):
        from selenium.webdriver.common.by import By
        self.taps += 1
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def space(self, player, cave, row):
        return f"players[{player}].mat.{cave}[{row}]"

    def shown(self, name):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.NAME, name).is_displayed()

    def controls(self):
        """(all, shown) controls of the form."""
        from selenium.webdriver.common.by import By
        found = self.driver.find_elements(By.CSS_SELECTOR, "#calc-form input:not([type=hidden]), #calc-form select, "
                                                           "#calc-form button")
        return len(found), sum(1 for c in found if c.is_displayed())

    def text(self, css):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.CSS_SELECTOR, css).text

    def totals(self):
        from selenium.webdriver.common.by import By
        return {cell.get_attribute("data-name"): int(cell.text)
                for cell in self.driver.find_elements(By.CSS_SELECTOR, "td.calc-total")}


def test_four_player_card_game_with_places_is_filled_in_scored_and_saved(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.choose("player_count", 4)
    mats = browser.find_elements(By.CSS_SELECTOR, ".calc-player")
    assert [p.is_displayed() for p in mats] == [True, True, True, True, False]
    assert not page.shown("players[0].dragon_vp")  # quick fields hidden
    # One empty dragon row per cave; the next appears when it is filled.
    assert page.shown(page.space(0, "crimson_cavern", 1) + ".dragon")
    assert not page.shown(page.space(0, "crimson_cavern", 2) + ".dragon")

    page.choose("objectives[3]", "8a")  # round 4: medium dragons, counted on the final mats
    for seat, name in enumerate(["Ann", "Ben", "Cy", "Dee"]):
        page.type(f"players[{seat}].name", name)
    # Rounds 1-3 from the round tracker: Ann and Ben tie for 1st in round 1, Cy 2nd; round 2 Dee 1st, Ann 2nd.
    for r, places in enumerate([[1, 1, 2, 0], [2, 0, 0, 1]]):
        for seat, place in enumerate(places):
            page.choose(f"players[{seat}].card.objective_places[{r}]", place)

    # Ann: Solitary Brown Drake and Stealthy Rufftail in the Crimson Cavern, 2 coins left.
    page.type(page.space(0, "crimson_cavern", 1) + ".dragon", "74 Solitary Brown Drake")
    wait_for(browser, lambda d: page.shown(page.space(0, "crimson_cavern", 2) + ".dragon"))
    nests = "[data-player='0'] .calc-cave-crimson_cavern .calc-row[data-row='1'] .calc-nests"
    assert page.text(nests) == "Solitary Brown Drake · 2 nests"
    page.type(page.space(0, "crimson_cavern", 1) + ".eggs", 2)
    page.type(page.space(0, "crimson_cavern", 2) + ".dragon", "60 Stealthy Rufftail")
    page.type(page.space(0, "crimson_cavern", 2) + ".eggs", 1)
    page.type("players[0].card.coins", 2)
    # Ben: Great Golden Lung Dragon (3 VP per other dragon in its cave) and Owlatic Amphiptere.
    page.type(page.space(1, "golden_grotto", 1) + ".dragon", "42 Great Golden Lung Dragon")
    page.type(page.space(1, "golden_grotto", 1) + ".eggs", 3)
    page.type(page.space(1, "golden_grotto", 2) + ".dragon", "47 Owlatic Amphiptere")
    # What an ability scores shows as you type: the Lung Dragon has one other dragon in its cave.
    lung = f"output[data-for='{page.space(1, 'golden_grotto', 1)}.dragon']"
    wait_for(browser, lambda d: page.text(lung) == "· ability: 3 VP")
    # Cy: two small dragons in the Amethyst Abyss, 2 resources cached; a milk counter with milk and gold.
    page.type(page.space(2, "amethyst_abyss", 1) + ".dragon", "52 Chromatic Blue Lung Dragon")
    page.type(page.space(2, "amethyst_abyss", 1) + ".cached", 2)
    page.type(page.space(2, "amethyst_abyss", 2) + ".dragon", "62 Descending Firevern")
    page.type(page.space(2, "golden_grotto", 1) + ".dragon", "17 Common Grass Lindworm")
    wait_for(browser, lambda d: page.shown(page.space(2, "golden_grotto", 1) + ".cached_other"))
    page.type(page.space(2, "golden_grotto", 1) + ".cached", 2)
    page.type(page.space(2, "golden_grotto", 1) + ".cached_other", 1)
    # Dee: Northern Cavalier Wyvern pays 2 dragon cards for 3 VP; 2 cards tucked under it.
    dee = page.space(3, "golden_grotto", 1)
    page.type(dee + ".dragon", "86 Northern Cavalier Wyvern")
    page.type(dee + ".tucked", 2)
    choice = browser.find_element(By.NAME, dee + ".choice")
    wait_for(browser, lambda d: choice.is_displayed())
    labels = [o.text for o in choice.find_elements(By.TAG_NAME, "option") if o.get_attribute("value") == "2"]
    assert "3 VP" in labels[0] and "2 dragon cards" in labels[0]
    page.choose(dee + ".choice", 2)
    page.type("players[3].card.hand_dragons", 3)
    assert not page.shown(dee + ".tokens")  # training tokens are only offered for fledglings
    assert not page.shown(page.space(0, "crimson_cavern", 1) + ".cached_other")  # nor kinds where none counts

    # Ann: 6 + 4 printed, 3 eggs, 2 coins, round 1 1st (4), round 2 2nd (2), round 4 tied 1st on medium (7) = 28.
    # Ben: 2 + 5 printed, 3 for the Owlatic beside his Lung Dragon, 3 eggs, round 1 1st (4), round 4 (7) = 24.
    # Cy: 5 + 4 + 1 printed, 2 + 3 cached, 2 for the milk on the Lindworm, round 1 2nd (1) = 18.
    # Dee: 8 printed, 3 for the paid cards, 2 tucked, round 2 1st (5) = 18.
    expected = {"Ann": 28, "Ben": 24, "Cy": 18, "Dee": 18}
    running = "fieldset[data-player='{}'] legend output.calc-running"
    wait_for(browser, lambda d: [page.text(running.format(i)) for i in range(4)] ==
             [f"{vp} VP" for vp in expected.values()])
    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "result"))
    assert page.totals() == expected
    assert "Ann wins" in browser.find_element(By.ID, "result-title").text
    assert browser.find_elements(By.CSS_SELECTOR, ".calc-chart svg rect")
    # The form comes back filled in, so the game can be corrected and saved.
    assert browser.find_element(By.NAME, dee + ".dragon").get_attribute("value") == "86 Northern Cavalier Wyvern"
    assert browser.find_element(By.CSS_SELECTOR, 'input[name="players[1].card.objective_places[0]"]:checked'
                                ).get_attribute("value") == "1"

    page.click("#save-button")
    wait_for(browser, lambda d: "/calculator/s/" in d.current_url)
    code = re.search(r"/calculator/s/([^/]+)/", browser.current_url).group(1)
    saved = ScoreSheet.objects.get(code=code)
    assert saved.entries.count() == 4
    assert saved.data["players"][2]["dragons"][0]["cached"] == {"milk": 2, "meat": 1}  # other kinds: a spare one
    assert page.totals() == expected


def test_places_that_skip_a_place_are_listed_at_the_top_with_links(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.type("players[0].name", "Ann")
    page.type("players[1].name", "Ben")
    page.choose("players[0].card.objective_places[1]", 2)
    page.choose("players[1].card.objective_places[1]", 0)
    page.type(page.space(0, "crimson_cavern", 1) + ".dragon", "Solitary Brwn Drake")
    page.type(page.space(0, "crimson_cavern", 2) + ".dragon", "60")
    page.click("#save-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "calc-errors"))
    items = browser.find_elements(By.CSS_SELECTOR, "#calc-errors li")
    # One typo is one error: the Rufftail after it keeps its place.
    assert len(items) == 2, [i.text for i in items]
    assert "Ann · Round 2 · Place: round 2: Ann is on 2nd, but nobody is on 1st" in items[0].text + items[1].text
    top = browser.execute_script("return document.getElementById('calc-errors').getBoundingClientRect().top")
    assert 0 <= top < 844  # the page scrolled to the list
    link = browser.find_element(By.CSS_SELECTOR, "#calc-errors a[href='#f-players0matcrimson_cavern1dragon']")
    link.click()
    field = browser.find_element(By.NAME, page.space(0, "crimson_cavern", 1) + ".dragon")
    assert field.get_attribute("aria-invalid") == "true"
    assert "no dragon called" in field.find_element(By.XPATH, "..").text
    assert ScoreSheet.objects.count() == 0


def test_quick_mode_is_a_grid_with_running_totals(browser, live_server, catalogue):
    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.type("players[0].name", "Ann")
    page.type("players[1].name", "Ben")
    page.type("players[0].dragon_vp", 30)
    page.type("players[0].items", 9)  # 2 VP
    page.choose("players[0].objective_places[0]", 1)  # 4 VP
    page.type("players[1].guild_markers", "6 1")
    total = "output.calc-running[data-block='players[{}]']"
    wait_for(browser, lambda d: (page.text(total.format(0)), page.text(total.format(1))) == ("36 VP", "7 VP"))
    assert page.text("th.calc-player-name[data-player='1']") == "Ben"
    # A mistake in one line leaves the other's running total.
    page.type("players[1].eggs", 500)
    wait_for(browser, lambda d: page.text(total.format(1)) == "–")
    assert page.text(total.format(0)) == "36 VP"


def test_entry_effort_of_a_four_player_card_game_with_ten_dragons_each(browser, live_server, catalogue, score_api):
    """The figures of docs/calculator.md; the page must score the game as the API does."""
    from selenium.webdriver.common.by import By

    from game.calculator import lookups

    sheet = scenario(lookups.current())
    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.choose("player_count", 4)
    controls, shown = page.controls()
    height = browser.execute_script("return document.documentElement.scrollHeight")
    for r, objective in enumerate(sheet["objectives"]):
        page.choose(f"objectives[{r}]", f"{objective['tile']}{objective['side']}")
    for i, player in enumerate(sheet["players"]):
        page.type(f"players[{i}].name", player["name"])
        for r, place in enumerate(player["objective_places"]):
            if place is not None:
                page.choose(f"players[{i}].card.objective_places[{r}]", place)
        rows = {}
        for dragon in player["dragons"]:
            rows[dragon["cave"]] = rows.get(dragon["cave"], 0) + 1
            space = page.space(i, dragon["cave"], rows[dragon["cave"]])
            page.type(space + ".dragon", dragon["card"])
            for key in ("eggs", "cached", "tucked"):
                if key in dragon:
                    page.type(f"{space}.{key}", dragon[key])
        for key in ("coins", "resources", "hand_dragons"):
            page.type(f"players[{i}].card.{key}", player[key])
    filled_controls, filled_shown = page.controls()
    filled_height = browser.execute_script("return document.documentElement.scrollHeight")
    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "result"))
    status, body = score_api(sheet)
    assert status == 200, body
    assert page.totals() == {line["name"]: line["total"] for line in body["result"]["lines"]}
    print(f"\nentry effort at 390 px: {controls} controls in the form, {shown} shown before typing "
          f"({filled_shown} once filled in), page {height} px tall ({filled_height} px filled in), {page.taps} taps")


def test_solo_quick_game_against_the_automa_and_a_tie_explained(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("#solo")
    players = browser.find_elements(By.CSS_SELECTOR, ".calc-name")
    assert [p.is_displayed() for p in players] == [True, False, False, False, False]
    page.type("players[0].name", "Me")
    page.type("players[0].dragon_vp", 40)
    page.type("players[0].visible_dragons", 11)
    page.choose("players[0].objective_places[0]", 1)  # 4 VP in round 1
    page.type("automa.dragon_vp", 38)
    page.type("automa.cache_tokens", 13)  # 6 VP
    page.type("automa.visible_dragons", 9)
    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "result"))
    assert page.totals() == {"Me": 44, "Automa": 44}
    tiebreak = browser.find_element(By.CSS_SELECTOR, ".calc-tiebreak").text
    assert "Me and the Automa tie on 44 VP" in tiebreak and "Me takes the higher place" in tiebreak
    assert browser.find_element(By.ID, "result-title").text == "Me wins"


def test_without_javascript_the_page_is_a_form_that_scores(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.type("players[0].name", "Ann")
    page.type(page.space(0, "golden_grotto", 1) + ".dragon", "42 Great Golden Lung Dragon")
    page.type(page.space(0, "golden_grotto", 1) + ".eggs", 2)  # every row's boxes show without the script
    page.type(page.space(0, "golden_grotto", 2) + ".dragon", "47")
    page.choose("players[0].card.objective_places[0]", 1)
    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "result"))
    # 2 + 5 printed, 3 for the other dragon in the Grotto, 2 eggs, round 1 1st (4).
    assert page.totals() == {"Ann": 2 + 5 + 3 + 2 + 4}


def test_objective_places_are_one_tap_buttons_big_enough_for_a_thumb_and_move_with_arrow_keys(
        browser, live_server, catalogue):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    name = "players[0].card.objective_places[0]"
    page.choose(name, 1)
    assert page.taps == 2  # the mode, then one tap for the place
    segments = browser.find_elements(By.CSS_SELECTOR, f'#f-{"players0cardobjective_places0"} .calc-segment span')
    assert [s.text for s in segments] == ["—", "1st", "2nd", "3rd", "other"]
    assert all(s.size["width"] >= 44 and s.size["height"] >= 44 for s in segments)
    checked = browser.find_element(By.CSS_SELECTOR, f'input[name="{name}"]:checked')
    assert checked.get_attribute("value") == "1"
    checked.send_keys(Keys.ARROW_RIGHT)
    assert browser.find_element(By.CSS_SELECTOR, f'input[name="{name}"]:checked').get_attribute("value") == "2"


def test_a_typo_in_a_number_box_stays_in_the_box_and_is_named_once(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.type("players[0].name", "Ann")
    page.type("players[1].name", "Ben")
    page.type("players[0].dragon_vp", 30)
    page.type("players[0].eggs", "1-2")
    page.type("players[0].coins", "1O")  # a letter O for a zero
    page.type("players[1].end_game_vp", "1e")
    total = "output.calc-running[data-block='players[{}]']"
    wait_for(browser, lambda d: (page.text(total.format(0)), page.text(total.format(1))) == ("–", "–"))
    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "calc-errors"))
    items = sorted(i.text for i in browser.find_elements(By.CSS_SELECTOR, "#calc-errors li"))
    assert items == ["Ann · Coins left: must be a whole number", "Ann · Eggs: must be a whole number",
                     "Ben · End-game abilities VP: must be a whole number"]
    assert not browser.find_elements(By.ID, "result")
    typed = {name: browser.find_element(By.NAME, name).get_attribute("value")
             for name in ("players[0].eggs", "players[0].coins", "players[1].end_game_vp")}
    assert typed == {"players[0].eggs": "1-2", "players[0].coins": "1O", "players[1].end_game_vp": "1e"}


def test_a_typo_in_a_dragons_box_stays_in_the_box_and_is_named_once(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.type("players[0].name", "Ann")
    space = page.space(0, "golden_grotto", 1)
    page.type(space + ".dragon", "42")
    page.type(space + ".eggs", "2-")
    page.type("players[0].card.coins", "3e")
    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "calc-errors"))
    items = sorted(i.text for i in browser.find_elements(By.CSS_SELECTOR, "#calc-errors li"))
    assert items == ["Ann · Coins left: must be a whole number",
                     "Ann · Golden Grotto · Eggs: must be a whole number"]
    assert browser.find_element(By.NAME, space + ".eggs").get_attribute("value") == "2-"
    assert browser.find_element(By.NAME, "players[0].card.coins").get_attribute("value") == "3e"


def test_a_dragon_is_found_by_its_name_alone_and_totals_beside_a_mistake_are_marked(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.choose("objectives[3]", "8a")  # round 4 is ranked on the mats: every line counts for every other
    page.type("players[0].name", "Ann")
    page.type("players[1].name", "Ben")
    nests = "[data-player='0'] .calc-cave-golden_grotto .calc-row[data-row='{}'] .calc-nests"
    # As the server reads them: a name alone, in any case, a slug, a number, or number and name.
    for row, typed in enumerate(["Great Golden Lung Dragon", "owlatic amphiptere", "86-northern-cavalier-wyvern"],
                                start=1):
        page.type(page.space(0, "golden_grotto", row) + ".dragon", typed)
    shown = ["Great Golden Lung Dragon · 3 nests", "Owlatic Amphiptere · 2 nests", "Northern Cavalier Wyvern · 1 nest"]
    wait_for(browser, lambda d: [page.text(nests.format(row)) for row in (1, 2, 3)] == shown)
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-player='0'] .calc-nests.calc-warn")
    assert not page.shown(page.space(0, "golden_grotto", 1) + ".tokens")  # an adult takes no training tokens
    running = "fieldset[data-player='{}'] legend output.calc-running"
    wait_for(browser, lambda d: re.fullmatch(r"\d+ VP", page.text(running.format(0))))
    note = browser.find_element(By.ID, "calc-running-note")
    assert not note.is_displayed()
    # Ben's misspelt dragon: his line cannot be scored, and Ann's rank in round 4 waits for it.
    page.type(page.space(1, "crimson_cavern", 1) + ".dragon", "Temperate Bambo Dragon")
    wait_for(browser, lambda d: page.text(running.format(0)).startswith("≈ "))
    assert page.text(running.format(1)) == "–"
    assert note.is_displayed() and "not final" in note.text


def test_on_a_phone_the_score_button_is_above_the_grid_and_takes_the_tap(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.type("players[0].name", "Ann")
    page.type("players[0].dragon_vp", 30)
    button = browser.find_element(By.ID, "score-button")
    headers = browser.find_elements(By.CSS_SELECTOR, ".calc-pad tbody th[scope=row]")
    covered = 0
    for header in headers:
        # Scroll the row under the sticky bar, its header's middle at the button's middle.
        browser.execute_script("""
            const [header, button] = arguments;
            const b = button.getBoundingClientRect(), h = header.getBoundingClientRect();
            window.scrollBy(0, (h.top + h.height / 2) - (b.top + b.height / 2));""", header, button)
        box = browser.execute_script("""
            const [header, button] = arguments;
            const b = button.getBoundingClientRect(), h = header.getBoundingClientRect();
            return {overlap: h.left < b.right && b.left < h.right && h.top < b.bottom && b.top < h.bottom,
                    hit: document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) === button};""",
                                     header, button)
        if box["overlap"]:
            covered += 1
            assert box["hit"], header.text
    assert covered, "no row header passed under the Score button"
    button.click()  # Selenium refuses a click that another element would receive
    wait_for(browser, lambda d: d.find_elements(By.ID, "result"))
    assert page.totals() == {"Ann": 30}
