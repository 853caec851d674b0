"""Shared fixtures. Engine tests need no database; web tests load the catalogue once per session."""
import os
import random
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("WYRMDEX_SHARED_DATA", ROOT.parent / "shared" / "data"))


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the default in pyproject.toml): two workers a core. Much of the suite waits rather than computes
    (Chromium drawing a page, a server or worker started in a subprocess, a poll), and a waiting worker leaves its
    core to another."""
    return 2 * (os.cpu_count() or 1)


def pytest_collection_modifyitems(config, items):
    """Browser tests first: they are the longest (whole games take a minute or more), and a parallel run hands tests
    out one by one in this order, so starting them early keeps one long test from finishing alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)


@pytest.fixture(scope="session")
def shared_data():
    """The reference transcriptions, or a skip with the reason when they are not beside the clone."""
    if not (SHARED_DATA / "base-game" / "dragon_cards.json").exists():
        pytest.skip(f"reference data not found at {SHARED_DATA}; set WYRMDEX_SHARED_DATA to compare")
    return SHARED_DATA


@pytest.fixture(scope="session", autouse=True)
def queue_runs_tasks_at_once():
    """Enqueued tasks run inline (Huey's immediate mode); tests/queue gives the queue a real consumer instead."""
    from huey.contrib.djhuey import HUEY

    HUEY.immediate = True


@pytest.fixture(autouse=True)
def seeded_matches(request):
    """New matches and server-played moves draw their seeds from a source seeded by the test's name, so a test
    plays the same games on every run and a failure can be run again as it was."""
    from game.matches import seeds

    source, seeds._source = seeds._source, random.Random(zlib.crc32(request.node.nodeid.encode()))
    yield
    seeds._source = source


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the catalogue once into the test database, so card data is there for every database test."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        call_command("load_catalogue", verbosity=0)


@pytest.fixture
def catalogue(db):
    """The loaded catalogue. Transactional tests (run last) flush tables, so reload when it is gone."""
    from django.core.management import call_command

    from cardsite.catalogue.models import Dragon

    if not Dragon.objects.exists():
        call_command("load_catalogue", verbosity=0)
    return Dragon.objects


@pytest.fixture(scope="session", autouse=True)
def static_files_as_they_are():
    """Pages link static/'s files by their own names, as on a debug server: production's hashed names need
    `collectstatic` first, which tests/fleet/test_static_files_browser.py runs for a production server of its own."""
    from django.test import override_settings

    plain = override_settings(STORAGES={
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    })
    plain.enable()
    yield
    plain.disable()


@pytest.fixture(scope="session", autouse=True)
def generous_rate_limits():
    """Tests sign in, sign up and write far faster than a person: limits high enough never to trip here. Tests
    about the limits (tests/security/) set their own low ones."""
    from django.test import override_settings

    generous = override_settings(RATE_LIMITS={"sign_in": (100000, 60), "sign_in_username": (100000, 60),
                                              "sign_up": (100000, 60), "write": (100000, 60),
                                              "try": (100000, 60), "guest": (100000, 60)})
    generous.enable()
    yield
    generous.disable()


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Tests make hundreds of accounts: each costs 0.25 s of CPU with the production hasher (PBKDF2 at its full
    work factor) and nothing with MD5. No test measures the hasher; the production setting is Django's default."""
    from django.test import override_settings

    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()
