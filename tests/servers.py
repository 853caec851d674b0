"""Real servers started by tests and benchmarks in processes of their own: a free port, waiting until one answers,
and the set-up of a database with one 2-player match between ann and ben (run with `manage.py shell -c`)."""
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

PASSWORD = "a-long-test-password-9"

# Prints "MATCH <public id> <seat to move>".
TWO_PLAYERS = f"""
from django.contrib.auth import get_user_model
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("load_catalogue", verbosity=0)
from game.matches import services
users = [get_user_model().objects.create_user(name, password={PASSWORD!r}) for name in ("ann", "ben")]
match = services.create_match(users[0], players=2)
services.join_match(match.pk, users[1])
match.refresh_from_db()
print("MATCH", match.public_id, match.to_move)
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url, server, log, seconds=60):
    """Wait until `url` answers (any HTTP status) while the process `server` runs; its `log` tells why not."""
    deadline = time.monotonic() + seconds
    while True:
        if server.poll() is not None:
            raise AssertionError(f"the server stopped:\n{Path(log).read_text()}")
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"the server never answered:\n{Path(log).read_text()}") from None
            time.sleep(0.2)
