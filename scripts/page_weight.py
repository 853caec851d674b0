#!/usr/bin/env python3
"""What a first visit to each main page costs on the wire, served as production serves it.

For a tree (this checkout by default; an older one made with `git archive <commit> | tar -x -C DIR`), on a fresh
SQLite database in a temporary folder: migrate, load the catalogue, start a two-player match and play 30 decisions,
`collectstatic` (into STATIC_ROOT, a temporary folder, for trees that read it), then gunicorn with DEBUG=false. A
browser-like client that asks for gzip signs in as the player to move and fetches each page and every stylesheet
and script it links. Printed per page: the HTML as generated and as sent, the static files as sent, the static
files' Cache-Control, and the total sent.

    .venv/bin/python scripts/page_weight.py                      # this tree
    .venv/bin/python scripts/page_weight.py /tmp/wyrmdex-old     # an older checkout (run with this tree's .venv)
"""
import argparse
import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-bench-password-1"
PAGES = ["/", "/cards/", "MATCH", "/analysis/", "/calculator/", "/rules/"]
SET_UP = f"""
import random
from django.core.management import call_command
from django.contrib.auth import get_user_model
from game.matches import services
from game.models import Match
call_command("migrate", verbosity=0)
call_command("load_catalogue", verbosity=0)
users = get_user_model().objects
ann = users.create_user("ann", password={PASSWORD!r})
ben = users.create_user("ben", password={PASSWORD!r})
match = services.create_match(ann, players=2)
services.join_match(match.pk, ben)
rng = random.Random(7)
for _ in range(30):
    m = Match.objects.get(pk=match.pk)
    state = services.load_state(m)
    option = rng.choice(state.legal_options())
    services.submit_decision(m.pk, m.seats.get(seat=state.pending.player).user, m.version, option.to_dict())
m = Match.objects.get(pk=match.pk)
print(getattr(m, "public_id", m.pk), m.seats.get(seat=services.load_state(m).pending.player).user.username)
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """A browser's way of asking: cookies kept, gzip accepted."""

    def __init__(self, port):
        self.port, self.cookies = port, {}

    def get(self, path, method="GET", body=None, gzip=True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": "127.0.0.1", "Accept-Encoding": "gzip" if gzip else "identity"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        content = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        conn.close()
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), content

    def sign_in(self, username):
        self.get("/accounts/login/")
        form = urlencode({"username": username, "password": PASSWORD, "csrfmiddlewaretoken": self.cookies["csrftoken"]})
        status, _, _ = self.get("/accounts/login/", "POST", form.encode())
        assert status == 302, f"could not sign in as {username}"


def linked_static(html):
    return re.findall(r'<(?:link[^>]*rel="stylesheet"[^>]*href|script[^>]*src)="(/static/[^"]+)"', html)


def measure(tree):
    work = Path(tempfile.mkdtemp(prefix="wyrmdex-weight-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL",
                                                            "DJANGO_SETTINGS_MODULE", "WYRMDEX_PRODUCTION")}
    env.update({"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
                "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}", "STATIC_ROOT": str(work / "static"),
                "PYTHONPATH": str(tree)})
    python = sys.executable
    match_id, player = subprocess.run([python, "manage.py", "shell", "-c", SET_UP], cwd=tree, env=env, check=True,
                                      capture_output=True, text=True).stdout.split()[-2:]
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=tree, env=env, check=True)
    port = free_port()
    log = (work / "gunicorn.log").open("w")
    server = subprocess.Popen([python, "-m", "gunicorn", "cardsite.wsgi:application", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1"], cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        client = Client(port)
        for _ in range(300):
            try:
                if client.get("/health/")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        client.sign_in(player)
        rows = []
        for page in PAGES:
            path = f"/matches/{match_id}/" if page == "MATCH" else page
            status, headers, sent = client.get(path)
            assert status == 200, f"{path} answered {status}"
            _, _, raw = client.get(path, gzip=False)
            static_sent, caching = 0, set()
            for url in linked_static(raw.decode()):
                status, file_headers, body = client.get(url)
                assert status == 200, f"{url} answered {status}"
                static_sent += len(body)
                caching.add(file_headers.get("cache-control", "none"))
            rows.append((page if page != "MATCH" else "a match (as its player)", len(raw), len(sent),
                         headers.get("content-encoding", "none"), static_sent, " / ".join(sorted(caching)),
                         len(sent) + static_sent))
        return rows
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(ROOT))
    args = parser.parse_args()
    rows = measure(Path(args.tree).resolve())
    print("| page | HTML generated | HTML sent | page encoding | static files sent | their Cache-Control | total sent |")
    print("| --- | ---: | ---: | --- | ---: | --- | ---: |")
    for page, raw, sent, encoding, static, caching, total in rows:
        print(f"| `{page}` | {raw / 1024:.1f} KB | {sent / 1024:.1f} KB | {encoding} | {static / 1024:.1f} KB | "
              f"{caching} | {total / 1024:.1f} KB |")


if __name__ == "__main__":
    main()
