"""Sign-in, sign-up and writes are limited per client in Django's cache (shared by every app server when it is
Redis); past a limit the answer is 429 with Retry-After, in the one error shape for the API."""
import json

import pytest
from django.core.cache import cache
from django.test import Client

from cardsite.errors import TooManyRequests
from cardsite.middleware import hit, rate_key


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


# Windows of a billion seconds: a test never straddles the start of a new window (which would reset its count).
WINDOW = 10**9


@pytest.fixture
def low_limits(settings):
    settings.RATE_LIMITS = {"sign_in": (3, WINDOW), "sign_in_username": (5, WINDOW), "sign_up": (2, WINDOW),
                            "write": (4, WINDOW), "try": (6, WINDOW)}


def sign_in(client, username, address="10.0.0.1", password="wrong"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in_as(client):
    return client.session.get("_auth_user_id")


def test_sign_in_is_limited_per_address_with_retry_after(visitor, user, low_limits):
    assert [sign_in(visitor, f"user{i}").status_code for i in range(3)] == [200, 200, 200]
    refused = sign_in(visitor, "mallory")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= WINDOW
    assert "Too many sign-in attempts from your address" in refused.content.decode()
    assert sign_in(visitor, "mallory", address="10.0.0.2").status_code == 200


def test_bad_passwords_from_one_address_do_not_lock_the_owner_out(user, settings):
    """The defaults: ten wrong passwords from address A; the owner's right one from address B still signs in, and
    A is refused whatever it tries next."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sign_in": (10, WINDOW), "sign_in_username": (50, WINDOW)}
    guesser = Client(raise_request_exception=False)
    assert {sign_in(guesser, "mallory", address="10.0.1.1").status_code for _ in range(10)} == {200}
    owner = Client(raise_request_exception=False)
    assert sign_in(owner, "mallory", address="10.0.1.2", password="a-long-test-password").status_code == 302
    assert signed_in_as(owner) == str(user.pk)
    assert sign_in(guesser, "mallory", address="10.0.1.1").status_code == 429
    assert sign_in(guesser, "mallory", address="10.0.1.1", password="a-long-test-password").status_code == 429
    assert signed_in_as(guesser) is None


def test_guesses_at_one_account_from_many_addresses_close_it_to_new_addresses_only(visitor, user, low_limits):
    """Past the username's limit of failures (5 here) from many addresses, an address the account was never signed
    in from is refused even with the right password; one it was signed in from still signs in."""
    owner = Client(raise_request_exception=False)
    assert sign_in(owner, "mallory", address="10.0.1.200", password="a-long-test-password").status_code == 302
    owner.logout()
    for i in range(5):
        assert sign_in(visitor, "Mallory" if i % 2 else "ｍallory", address=f"10.0.1.{i}").status_code == 200
    assert sign_in(visitor, "mallory", address="10.0.1.9").status_code == 429
    newcomer = Client(raise_request_exception=False)
    assert sign_in(newcomer, "mallory", address="10.0.1.10", password="a-long-test-password").status_code == 429
    assert signed_in_as(newcomer) is None
    assert sign_in(owner, "mallory", address="10.0.1.200", password="a-long-test-password").status_code == 302
    assert signed_in_as(owner) == str(user.pk)
    assert sign_in(visitor, "someone-else", address="10.0.1.11").status_code == 200  # other accounts are open


def test_the_owners_own_sign_ins_do_not_count_against_the_username(user, low_limits, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "sign_in_username": (2, WINDOW)}
    for i in range(4):
        owner = Client(raise_request_exception=False)
        assert sign_in(owner, "mallory", address=f"10.0.5.{i}", password="a-long-test-password").status_code == 302


def test_a_refused_sign_in_does_not_sign_in_even_with_the_right_password(visitor, user, low_limits):
    for _ in range(3):
        sign_in(visitor, "mallory")
    response = visitor.post("/accounts/login/", {"username": "mallory", "password": "a-long-test-password"},
                            REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 429
    assert "_auth_user_id" not in visitor.session


def test_sign_up_is_limited_per_address(visitor, low_limits, django_user_model):
    def sign_up(name):
        return visitor.post("/accounts/signup/", {"username": name, "password1": "x-long-pass-9876",
                                                  "password2": "x-long-pass-9876"}, REMOTE_ADDR="10.0.2.1")
    assert [sign_up(f"new{i}").status_code for i in range(2)] == [302, 302]
    assert sign_up("new2").status_code == 429
    assert not django_user_model.objects.filter(username="new2").exists()


def save_sheet(client, **extra):
    """A write: a scored sheet saved (it gets a permalink)."""
    from game.api_calculator import EXAMPLE

    return client.post("/api/calculator/sheets/", json.dumps(EXAMPLE), content_type="application/json", **extra)


def test_api_writes_are_limited_with_the_one_error_shape(visitor, catalogue, low_limits):
    for _ in range(4):
        assert save_sheet(visitor).status_code == 201
    refused = save_sheet(visitor)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    body = refused.json()
    assert body["code"] == "rate_limited" and body["field"] is None
    # In words: what was counted, the allowance, that nothing happened and how long to wait.
    assert body["detail"].startswith("Too many changes sent (moves, chats, saves and other writes): this site "
                                     "takes at most 4 every ")
    assert f"Nothing was done; wait {refused['Retry-After']} second" in body["detail"]
    assert visitor.get("/api/calculator/history/").status_code in (200, 403)  # reads are not writes


def test_tries_have_their_own_allowance_and_leave_the_writes_alone(visitor, catalogue, low_limits):
    body = json.dumps({"card": "Smirking Ridgeback"})
    for _ in range(6):
        assert visitor.post("/api/checker/", body, content_type="application/json").status_code == 200
    refused = visitor.post("/api/checker/", body, content_type="application/json")
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many tries sent (previews of a choice, analyses and card checks)")
    assert visitor.get("/api/checker/?card=Smirking+Ridgeback").status_code == 200  # reads count against nothing
    # The writes' allowance is untouched by all those tries.
    for _ in range(4):
        assert save_sheet(visitor).status_code == 201


def test_the_score_pads_running_totals_are_tries(visitor, catalogue, low_limits):
    for _ in range(6):
        assert visitor.post("/calculator/", {"preview": "1", "players": "2"}).status_code == 200
    assert visitor.post("/calculator/", {"preview": "1", "players": "2"}).status_code == 429
    assert save_sheet(visitor).status_code == 201


def test_a_signed_in_players_writes_count_against_the_player(signed_in, catalogue, low_limits):
    for i in range(4):
        assert save_sheet(signed_in, REMOTE_ADDR=f"10.0.3.{i}").status_code == 201
    assert save_sheet(signed_in, REMOTE_ADDR="10.0.3.99").status_code == 429


def test_the_window_says_how_long_to_wait(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "write": (4, 60)}
    for _ in range(4):
        hit("write", "addr:test", now=6000.0)
    with pytest.raises(TooManyRequests) as refused:
        hit("write", "addr:test", now=6045.2)
    assert refused.value.retry_after == 15
    hit("write", "addr:test", now=6060.0)  # a new window starts afresh


def test_forwarded_addresses_are_believed_only_from_trusted_proxies(visitor, user, low_limits, settings):
    for i in range(3):  # a client that writes its own X-Forwarded-For is still counted by its real address
        visitor.post("/accounts/login/", {"username": f"u{i}"}, REMOTE_ADDR="10.0.4.1",
                     HTTP_X_FORWARDED_FOR=f"1.1.1.{i}")
    assert visitor.post("/accounts/login/", {"username": "u9"}, REMOTE_ADDR="10.0.4.1",
                        HTTP_X_FORWARDED_FOR="1.1.1.9").status_code == 429
    settings.TRUSTED_PROXIES = 1
    assert visitor.post("/accounts/login/", {"username": "u10"}, REMOTE_ADDR="10.0.4.1",
                        HTTP_X_FORWARDED_FOR="9.9.9.9, 1.1.1.10").status_code == 200


def test_counts_are_shared_through_redis(settings):
    """Several app servers share one count when the cache is Redis (db 2 is this test's own)."""
    pytest.importorskip("redis")
    from django.core.cache import caches
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                                     "LOCATION": "redis://127.0.0.1:6379/2",
                                                     "KEY_PREFIX": "hardening-test"}}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "write": (2, 60)}  # `now` is given: no window to straddle
    other_server = caches.create_connection("default")  # its own connection to the same Redis
    try:
        cache.clear()
        hit("write", "addr:shared", now=600.0)
        other_server.incr(rate_key("write", "addr:shared", 10))  # the other server counts the same client
        with pytest.raises(TooManyRequests):
            hit("write", "addr:shared", now=601.0)
    finally:
        cache.clear()
