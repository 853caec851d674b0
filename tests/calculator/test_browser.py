"""A person at a phone-sized headless Chromium fills in a four-player game card by card, scores it and saves it."""
import re

import pytest

from tests.browser import open_chromium

from game.models import ScoreSheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def browser():
    yield from open_chromium("412,915")


def wait_for(driver, condition, timeout=10):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


class Page:
    def __init__(self, driver):
        self.driver = driver

    def el(self, name):
        from selenium.webdriver.common.by import By
        element = self.driver.find_element(By.NAME, name)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        return element

    def type(self, name, value):
        element = self.el(name)
        element.clear()
        element.send_keys(str(value))

    def choose(self, name, value):
        from selenium.webdriver.support.ui import Select
        Select(self.el(name)).select_by_value(str(value))

    def click(self, css):
        from selenium.webdriver.common.by import By
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def space(self, player, cave, column):
        return f"players[{player}].mat.{cave}[{column}]"

    def totals(self):
        from selenium.webdriver.common.by import By
        return {cell.get_attribute("data-name"): int(cell.text)
                for cell in self.driver.find_elements(By.CSS_SELECTOR, "td.calc-total")}


def test_four_player_card_game_is_filled_in_scored_and_saved(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.choose("player_count", 4)
    players = browser.find_elements(By.CSS_SELECTOR, ".calc-player")
    assert [p.is_displayed() for p in players] == [True, True, True, True, False]
    assert not browser.find_element(By.NAME, "players[0].dragon_vp").is_displayed()  # quick fields hidden

    page.choose("objectives[3]", "8a")  # round 4: medium dragons

    # Ann: Solitary Brown Drake and Stealthy Rufftail in the Crimson Cavern, 2 coins left.
    page.type("players[0].name", "Ann")
    page.type(page.space(0, "crimson_cavern", 1) + ".dragon", "74 Solitary Brown Drake")
    page.type(page.space(0, "crimson_cavern", 1) + ".eggs", 2)
    page.type(page.space(0, "crimson_cavern", 2) + ".dragon", "60 Stealthy Rufftail")
    page.type(page.space(0, "crimson_cavern", 2) + ".cave_card", 14)
    page.type(page.space(0, "crimson_cavern", 2) + ".eggs", 1)
    page.type("players[0].card.coins", 2)
    # Ben: Great Golden Lung Dragon (3 VP per other dragon in its cave) and Owlatic Amphiptere.
    page.type("players[1].name", "Ben")
    page.type(page.space(1, "golden_grotto", 1) + ".dragon", "42 Great Golden Lung Dragon")
    page.type(page.space(1, "golden_grotto", 1) + ".eggs", 3)
    page.type(page.space(1, "golden_grotto", 2) + ".dragon", "47 Owlatic Amphiptere")
    # Cy: two small dragons in the Amethyst Abyss, 2 resources cached.
    page.type("players[2].name", "Cy")
    page.type(page.space(2, "amethyst_abyss", 1) + ".dragon", "52 Chromatic Blue Lung Dragon")
    page.type(page.space(2, "amethyst_abyss", 1) + ".cached", 2)
    page.type(page.space(2, "amethyst_abyss", 2) + ".dragon", "62 Descending Firevern")
    # Dee: Northern Cavalier Wyvern pays 2 dragon cards for 3 VP; 2 cards tucked under it.
    page.type("players[3].name", "Dee")
    dee = page.space(3, "golden_grotto", 1)
    page.type(dee + ".dragon", "86 Northern Cavalier Wyvern")
    page.type(dee + ".tucked", 2)
    choice = browser.find_element(By.NAME, dee + ".choice")
    wait_for(browser, lambda d: choice.is_displayed())
    labels = [o.text for o in choice.find_elements(By.TAG_NAME, "option") if o.get_attribute("value") == "2"]
    assert "3 VP" in labels[0] and "2 dragon cards" in labels[0]
    page.choose(dee + ".choice", 2)
    page.type("players[3].card.hand_dragons", 3)
    # Training tokens are only offered for fledglings.
    assert not browser.find_element(By.NAME, dee + ".tokens").is_displayed()

    page.click("#score-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "result"))
    # Ann: 6 + 4 printed, 3 eggs, 2 coins, round 4 tied 1st on medium dragons (7 VP) = 22.
    # Ben: 2 + 5 printed, 3 for the Owlatic beside his Lung Dragon, 3 eggs, round 4 tied 1st (7) = 20.
    # Cy: 5 + 4 printed, 2 cached = 11. Dee: 8 printed, 3 for the paid cards, 2 tucked = 13.
    assert page.totals() == {"Ann": 22, "Ben": 20, "Cy": 11, "Dee": 13}
    assert "Ann wins" in browser.find_element(By.ID, "result-title").text
    assert browser.find_elements(By.CSS_SELECTOR, ".calc-chart svg rect")
    # The form comes back filled in, so the game can be corrected and saved.
    assert browser.find_element(By.NAME, dee + ".dragon").get_attribute("value") == "86 Northern Cavalier Wyvern"

    page.click("#save-button")
    wait_for(browser, lambda d: "/calculator/s/" in d.current_url)
    code = re.search(r"/calculator/s/([^/]+)/", browser.current_url).group(1)
    assert ScoreSheet.objects.get(code=code).entries.count() == 4
    assert page.totals() == {"Ann": 22, "Ben": 20, "Cy": 11, "Dee": 13}


def test_a_mistake_in_card_mode_is_marked_beside_the_space(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("input[name=mode][value=card]")
    page.type("players[0].name", "Ann")
    page.type(page.space(0, "crimson_cavern", 1) + ".dragon", "42 Great Golden Lung Dragon")
    page.click("#save-button")
    wait_for(browser, lambda d: d.find_elements(By.ID, "calc-errors"))
    field = browser.find_element(By.NAME, page.space(0, "crimson_cavern", 1) + ".dragon")
    assert field.get_attribute("aria-invalid") == "true"
    label = field.find_element(By.XPATH, "..")
    assert "lives in the Golden Grotto" in label.text
    assert ScoreSheet.objects.count() == 0


def test_solo_quick_game_against_the_automa_and_a_tie_explained(browser, live_server, catalogue):
    from selenium.webdriver.common.by import By

    page = Page(browser)
    browser.get(live_server.url + "/calculator/")
    page.click("#solo")
    players = browser.find_elements(By.CSS_SELECTOR, ".calc-player")
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
    assert "Me and Automa tie on 44 VP" in tiebreak and "Me takes the higher place" in tiebreak
    assert browser.find_element(By.ID, "result-title").text == "Me wins"
