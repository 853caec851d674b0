"""A production server, as docs/deploy.md starts one: `collectstatic` into STATIC_ROOT, then gunicorn with DEBUG off.
Headless Chromium opens its pages and finds that they link static files by hashed names, that those are kept for
a year or more and sent gzipped, and that the public pages are sent gzipped too (all because Chromium asks for it).

Needs nothing but Python: the database is a SQLite file in a temporary folder."""
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import css, start_chromium, wait_for

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
YEAR = 365 * 24 * 3600
SETTINGS_VARIABLES = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
                      "WYRMDEX_PRODUCTION", "DJANGO_SETTINGS_MODULE", "REDIS_URL", "STATIC_ROOT")
HASHED = re.compile(r"^/static/.+\.[0-9a-f]{12}\.(css|js)$")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    """The base URL of a gunicorn serving this tree with production settings after `collectstatic`."""
    work = tmp_path_factory.mktemp("production")
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update({"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
                "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}", "STATIC_ROOT": str(work / "static")})
    set_up = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c",
         "from django.core.management import call_command; call_command('migrate', verbosity=0); "
         "call_command('load_catalogue', verbosity=0); call_command('collectstatic', interactive=False, verbosity=0)"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert set_up.returncode == 0, set_up.stdout + set_up.stderr
    port = free_port()
    log = work / "gunicorn.log"
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "cardsite.wsgi:application", "--bind",
                               f"127.0.0.1:{port}", "--workers", "1", "--timeout", "60"],
                              cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"gunicorn stopped:\n{log.read_text()}"
            try:
                if urllib.request.urlopen(base + "/health/", timeout=5).status == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, f"gunicorn never answered:\n{log.read_text()}"
                time.sleep(0.2)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium("1366,900")
    yield driver
    driver.quit()


def headers_of(driver, url):
    """The answer's headers as the page's own fetch sees them (same origin, so every header but cookies)."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {cache: 'no-store'}).then(r => done(Object.fromEntries(r.headers.entries())),"
        " e => done({error: String(e)}));", url)


def sizes(driver, path):
    """(bytes on the wire, bytes once decoded) of each resource the page loaded, by path."""
    entries = driver.execute_script(
        "return performance.getEntries().filter(e => e.encodedBodySize !== undefined)"
        ".map(e => [new URL(e.name).pathname, e.encodedBodySize, e.decodedBodySize]);")
    return {name: (encoded, decoded) for name, encoded, decoded in entries}


def max_age(cache_control):
    found = re.search(r"max-age=(\d+)", cache_control or "")
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("path", ["/", "/cards/", "/analysis/", "/rules/"])
def test_a_production_page_links_hashed_static_files_kept_a_year_and_sent_gzipped(browser, production, path):
    browser.get(production + path)
    wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    linked = [e.get_attribute("href") for e in css(browser, "link[rel=stylesheet]")] + [
        e.get_attribute("src") for e in css(browser, "script[src]")]
    paths = [urllib.request.urlparse(url).path for url in linked]
    assert paths and "/static/wyrmdex.css" not in paths
    assert [p for p in paths if not HASHED.match(p)] == [], "static files linked by names without a hash"

    loaded = sizes(browser, path)
    for static in paths:
        headers = headers_of(browser, production + static)
        assert max_age(headers.get("cache-control")) >= YEAR, (static, headers)
        assert headers.get("content-encoding") == "gzip", (static, headers)
        encoded, decoded = loaded[static]
        assert 0 < encoded < decoded, f"{static} came uncompressed: {encoded} bytes sent for {decoded}"

    page = headers_of(browser, production + path)
    assert page.get("content-encoding") == "gzip", page
    encoded, decoded = loaded[path]
    assert 0 < encoded < decoded / 2, f"{path} came uncompressed: {encoded} bytes sent for {decoded}"
