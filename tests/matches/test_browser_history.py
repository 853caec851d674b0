"""The game history in headless Chromium: search the games of a player on /games/, open one, read its final
scores, step its replay and take "Analyse from this move" to the analysis board at that step."""
import pytest

from .test_browser import by, text_of, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_search_a_player_open_a_game_and_analyse_from_a_move(open_browser, live_server, finish_rated, alice, bob,
                                                              carol):
    finish_rated(bob, carol, seed=12)
    game = finish_rated(alice, bob, seed=11)
    driver = open_browser("1200,900")
    driver.get(f"{live_server.url}/")
    driver.find_element(*by("#games-link")).click()
    wait_for(driver, lambda d: d.find_elements(*by("#games-search")))
    assert len(driver.find_elements(*by("#games-list tbody tr"))) == 2
    driver.find_element(*by("#games-player")).send_keys("alice")
    driver.find_element(*by("#games-search-button")).click()
    wait_for(driver, lambda d: "player=alice" in d.current_url)
    rows = driver.find_elements(*by("#games-list tbody tr"))
    assert [r.get_attribute("data-match") for r in rows] == [game.public_id]
    rows[0].find_element(*by(".games-open")).click()
    wait_for(driver, lambda d: d.find_elements(*by("#final-scores")))
    assert "Total" in text_of(driver, "#final-scores")
    driver.find_element(*by("#replay-link")).click()
    wait_for(driver, lambda d: "Replay: move 0 of" in text_of(d, "#replay-bar"))
    driver.find_element(*by("#replay-next")).click()
    wait_for(driver, lambda d: "Replay: move 1 of" in text_of(d, "#replay-bar"))
    driver.find_element(*by("#replay-next")).click()  # the bar is drawn anew at each step
    wait_for(driver, lambda d: "Replay: move 2 of" in text_of(d, "#replay-bar"))
    link = driver.find_element(*by("#replay-analyse"))
    assert link.get_attribute("href").endswith(f"/matches/{game.public_id}/analyse/?move=2")
    link.click()
    wait_for(driver, lambda d: "/analysis/" in d.current_url and "p=" in d.current_url, timeout=20)
