"""Two people in headless Chromium (a desktop and a phone): an invite link, the turn count, a chat line sent without
reloading and shown as text in the other window, and a resignation that shows the end of the match to both.

Set WYRMDEX_SCREENSHOTS to a folder to keep screenshots of each page for a person to look at."""
import os

import pytest
from django.contrib.auth import get_user_model

from game.matches import services
from game.models import ChatMessage, Match

from .test_browser import PASSWORD, by, text_of, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("WYRMDEX_SCREENSHOTS")




def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        width = driver.execute_script("return window.innerWidth")
        driver.set_window_size(max(width, 390), min(height + 120, 4000))
        driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def sign_in(driver, base, name, next_url):
    driver.get(f"{base}/accounts/login/?next={next_url}")
    driver.find_element(*by("#id_username")).send_keys(name)
    driver.find_element(*by("#id_password")).send_keys(PASSWORD)
    driver.find_element(*by("form button[type=submit]")).click()
    wait_for(driver, lambda d: "/accounts/login/" not in d.current_url)


def no_sideways_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_invite_chat_and_resign_in_two_browsers(open_browser, live_server, catalogue):
    users = get_user_model().objects
    ann = users.create_user("ann", password=PASSWORD)
    users.create_user("ben", password=PASSWORD)
    base = live_server.url
    desk = open_browser("1200,900")
    phone = open_browser("390,844")

    sign_in(desk, base, "ann", "/matches/")
    shot(desk, "lobby-desktop")
    desk.find_element(*by("#id_days_per_move option[value='1']")).click()
    desk.find_element(*by("#id_on_timeout option[value='bot']")).click()
    desk.find_element(*by("#id_private")).click()
    desk.find_element(*by("#create-match button[type=submit]")).click()
    wait_for(desk, lambda d: d.find_elements(*by("#invite-link")))
    match = Match.objects.get()
    assert (match.days_per_move, match.on_timeout, match.private) == (1, "bot", True)
    link = desk.find_element(*by("#invite-link")).get_attribute("value")
    shot(desk, "waiting-desktop")

    # Ben follows the invite link on his phone, signs in, and takes the seat.
    sign_in(phone, base, "ben", link.replace(base, ""))
    wait_for(phone, lambda d: d.find_elements(*by("#invite-join")))
    shot(phone, "invite-phone")
    phone.find_element(*by("#invite-join")).click()
    wait_for(phone, lambda d: d.current_url.endswith(f"/matches/{match.public_id}/"))
    match = Match.objects.get()
    assert match.status == "playing"

    # Whoever is to move sees the count in the title and the navigation.
    mover = desk if match.to_move == services.seat_of(match, ann) else phone
    mover.refresh()
    wait_for(mover, lambda d: d.title.startswith("(1) "))
    assert text_of(mover, "#turn-count").startswith("1")

    # A chat line from the phone appears in the desktop window by itself, as text.
    wait_for(phone, lambda d: d.find_elements(*by("#chat-text")))
    phone.find_element(*by("#chat-text")).send_keys("<b>good luck</b>")
    phone.find_element(*by("#chat-form button")).click()
    wait_for(phone, lambda d: "<b>good luck</b>" in text_of(d, "#chat-lines"))
    assert phone.find_element(*by("#chat-text")).get_attribute("value") == ""
    wait_for(desk, lambda d: "ben: <b>good luck</b>" in text_of(d, "#chat-lines"))
    assert not desk.find_elements(*by("#chat-lines b"))
    assert ChatMessage.objects.get().text == "<b>good luck</b>"
    shot(desk, "board-desktop")
    shot(phone, "board-phone")
    assert no_sideways_scroll(phone)

    # Abort is offered until the first move; then resign takes its place, on both pages by themselves.
    assert phone.find_elements(*by("#abort-button"))
    seat, _, options = services.load_state(match).pending.player, None, services.load_state(match).pending.options
    services.submit_decision(match.pk, match.seats.get(seat=seat).user, 0, options[0].to_dict())
    wait_for(phone, lambda d: d.find_elements(*by(".match-resign summary")))
    assert not phone.find_elements(*by("#abort-button"))

    # Ben resigns from the phone; both windows show the end of the match.
    phone.find_element(*by(".match-resign summary")).click()
    phone.find_element(*by("#resign-button")).click()
    wait_for(phone, lambda d: "ann wins" in text_of(d, "#ending"))
    wait_for(desk, lambda d: "ann wins" in text_of(d, "#ending"), timeout=30)
    assert "left (resigned)" in text_of(desk, "#ranking")
    shot(desk, "ending-desktop")
    shot(phone, "ending-phone")
    assert no_sideways_scroll(phone)
    assert Match.objects.get().status == "finished"


def test_a_page_whose_first_data_is_newer_than_the_page_reloads_to_show_it(open_browser, live_server, catalogue):
    """A resignation between the server drawing the page and the page's first fetch: the ending is drawn by the
    server, so the page must notice that its data is newer than itself and reload, not wait for a later change."""
    users = get_user_model().objects
    ann, ben = users.create_user("ann", password=PASSWORD), users.create_user("ben", password=PASSWORD)
    match = services.create_match(ann, players=2)
    services.join_match(match.pk, ben)
    desk = open_browser("1200,900")
    desk.execute_cdp_cmd("Network.enable", {})
    desk.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/matches/*"]})  # the page's fetches wait
    sign_in(desk, live_server.url, "ann", f"/matches/{match.public_id}/")
    wait_for(desk, lambda d: d.find_elements(*by("#you .match-space")) or d.find_elements(*by("#match")))
    assert "ann wins" not in text_of(desk, "#ending")
    services.resign(match.pk, ben)
    desk.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    desk.execute_script("window.dispatchEvent(new Event('focus'))")
    wait_for(desk, lambda d: "ann wins" in text_of(d, "#ending"), timeout=15)
