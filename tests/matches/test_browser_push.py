"""Moves arrive by themselves: the site served as the README serves it (`manage.py runserver`, which is Daphne's,
with the in-memory channel layer and queue), a player's board open in headless Chromium, and the other player's
moves sent to the server over HTTP as their browser would. The page's poll is set to a minute, so only the push
can bring the moves within seconds; the badge beside Play follows the turn the same way.

Needs nothing but Python: the database is a SQLite file in a temporary folder."""
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.browser import start_chromium, wait_for
from tests.servers import PASSWORD, TWO_PLAYERS, free_port, wait_until_up

from .test_browser import by, text_of

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARIABLES = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
                      "WYRMDEX_PRODUCTION", "DJANGO_SETTINGS_MODULE", "REDIS_URL", "STATIC_ROOT", "MATCH_POLL_MS")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL, match public id, seat to move) of the README's server over a fresh database."""
    work = tmp_path_factory.mktemp("push")
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update({"DEBUG": "true", "SECRET_KEY": secrets.token_urlsafe(50), "MATCH_POLL_MS": "60000",
                "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}"})
    set_up = subprocess.run([sys.executable, "manage.py", "shell", "-c", TWO_PLAYERS], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert set_up.returncode == 0, set_up.stdout + set_up.stderr
    public_id, to_move = re.search(r"MATCH (\S+) (\d)", set_up.stdout).groups()
    port = free_port()
    log = work / "server.log"
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                              cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base + "/health/", server, log)
        yield base, public_id, int(to_move)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


class Player:
    """The other player, as their browser talks to the API: signed in with a session and its CSRF token."""

    def __init__(self, base, name):
        import requests

        self.base, self.http = base, requests.Session()
        self.http.get(f"{base}/accounts/login/")
        answer = self.http.post(f"{base}/accounts/login/", data={
            "username": name, "password": PASSWORD, "csrfmiddlewaretoken": self.http.cookies["csrftoken"]},
            headers={"Referer": f"{base}/accounts/login/"})
        assert answer.ok and "sessionid" in self.http.cookies

    def move(self, public_id):
        """Take the first option offered; returns the match's version after it."""
        api = f"{self.base}/api/matches/{public_id}/"
        match = self.http.get(api).json()
        option = self.http.get(api + "options/").json()["options"][0]
        answer = self.http.post(api + "decisions/", json={"version": match["version"], "option": option},
                                headers={"X-CSRFToken": self.http.cookies["csrftoken"], "Referer": api})
        assert answer.status_code == 201, answer.text
        return answer.json()["version"]


@pytest.fixture
def browser():
    driver = start_chromium("390,844")
    yield driver
    driver.quit()


def test_the_other_players_moves_and_the_turn_arrive_without_a_reload_or_a_poll(served, browser):
    base, public_id, to_move = served
    names = ("ann", "ben")
    mover, watcher = names[to_move], names[1 - to_move]
    browser.get(f"{base}/accounts/login/?next=/matches/{public_id}/")
    browser.find_element(*by("#id_username")).send_keys(watcher)
    browser.find_element(*by("#id_password")).send_keys(PASSWORD)
    browser.find_element(*by("form button[type=submit]")).click()
    wait_for(browser, lambda d: f"/matches/{public_id}/" in d.current_url
             and "Waiting for" in text_of(d, "#prompt-text"))
    assert not browser.find_elements(*by("#turn-count"))  # nothing waits for the watcher yet
    other = Player(base, mover)

    def arrived(version):
        wait_for(browser, lambda d: d.find_elements(*by(f"#log li[data-decision='{version}']")), timeout=10)

    # The first move takes the abort button away, which the server draws: the page reloads itself for that.
    started = time.monotonic()
    arrived(other.move(public_id))
    browser.execute_script("window.__sameDocument = true")  # from now on, gone if the page reloads
    while "Your turn" not in text_of(browser, "#prompt-text"):  # the mover's setup, until the turn passes
        arrived(other.move(public_id))
    # The poll comes once a minute: the moves and the turn came by the socket, into the same page.
    assert time.monotonic() - started < 60
    assert browser.execute_script("return window.__sameDocument === true")
    wait_for(browser, lambda d: text_of(d, "#turn-count").startswith("1"), timeout=10)
    assert browser.title.startswith("(1) ")
