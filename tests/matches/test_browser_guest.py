"""A newcomer in headless Chromium: plays a whole solo game against the Automa as a guest, without an account, with
the options chosen on the home page; then signs up from the board's link, comes back to the board, and finds the
game among their matches."""
import pytest
from django.contrib.auth import get_user_model

from game.matches.ids import is_public_id
from game.models import Guest, Match

from .test_browser import PASSWORD, by, text_of, wait_for, wait_for_path
from .test_browser_bots import browser, final_scores_shown, play_to_the_end, worker  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_guest_plays_a_whole_solo_game_then_signs_up_and_finds_it(browser, live_server, catalogue,  # noqa: F811
                                                                     worker):  # noqa: F811
    base = live_server.url
    browser.get(f"{base}/")
    assert "No account needed" in text_of(browser, "#play-now")
    browser.find_element(*by("#id_automa_level option[value='2']")).click()
    browser.find_element(*by("#id_ravel")).click()
    browser.find_element(*by("#play-automa-go")).click()
    wait_for(browser, lambda d: is_public_id(d.current_url.rstrip("/").split("/")[-1]))
    match = Match.objects.get()
    assert (match.players, match.automa_level, match.ravel, match.status) == (1, 2, True, "playing")
    guest = match.creator
    assert Guest.objects.filter(user=guest).exists()
    assert "(guest)" in text_of(browser, "#guest-name")

    assert play_to_the_end(browser, match.pk, seed=5) > 10
    wait_for(browser, final_scores_shown, timeout=30)
    assert Match.objects.get().status == Match.Status.FINISHED

    browser.refresh()
    wait_for(browser, final_scores_shown, timeout=30)  # the page drawn from its data: nothing moves after this
    signup = browser.find_element(*by("#guest-note a[href^='/accounts/signup/']"))
    # brought to the middle of the screen first, as a person scrolls it above the phone's bar of the question
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", signup)
    signup.click()
    wait_for_path(browser, "/accounts/signup/")
    browser.find_element(*by("#id_username")).send_keys("newcomer")
    browser.find_element(*by("#id_password1")).send_keys(PASSWORD)
    browser.find_element(*by("#id_password2")).send_keys(PASSWORD)
    browser.find_element(*by("form.account-form button[type=submit]")).click()
    wait_for_path(browser, f"/matches/{match.public_id}/")  # back where they were
    account = get_user_model().objects.get(username="newcomer")
    match = Match.objects.get()
    assert match.creator == account and match.seats.get(seat=0).user == account
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
    assert "newcomer" in text_of(browser, "#final-scores")
    browser.get(f"{base}/matches/")
    wait_for(browser, lambda d: f"Match {match.public_id}" in text_of(d, "#my-matches"))
    assert "Finished" in text_of(browser, "#my-matches")
