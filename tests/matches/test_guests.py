"""Guests: a visitor plays the Automa and bots at once without an account, within a cap and the rate limits, only
against machines; signing up or in from the guest's session hands the guest's matches to the account, in one
transaction; `next` survives sign-in and sign-up and is refused when it leads off the site; old guests are cleaned."""
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from game.matches import guests, integrity, services
from game.matches.errors import MatchError
from game.models import Guest, Match, MatchSeat

PASSWORD = "a-long-test-password"
AUTOMA = {"opponent": "automa", "automa_level": "3", "ravel": "on", "academy": "on"}


def play_as_guest(client, form=AUTOMA):
    response = client.post("/play/", form)
    assert response.status_code == 302, response.content[:500]
    return Match.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def sign_up(client, name="newcomer", next_url=None):
    url = "/accounts/signup/" + (f"?next={next_url}" if next_url else "")
    return client.post(url, {"username": name, "password1": PASSWORD, "password2": PASSWORD})


def test_a_visitor_plays_the_automa_at_once_with_the_chosen_options(client, catalogue):
    match = play_as_guest(client)
    assert (match.status, match.players, match.automa_level, match.ravel, match.academy) == ("playing", 1, 3, True,
                                                                                             True)
    guest = match.seats.get(seat=0).user
    assert Guest.objects.filter(user=guest).exists() and not guest.has_usable_password()
    assert match.creator == guest and guests.is_guest(guest)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="guest-note"' in page and 'id="chat-form"' not in page
    # The guest plays through the same API as anyone: its seat is its own.
    state = services.load_state(match)
    option = state.pending.options[0].to_dict()
    answer = client.post(f"/api/matches/{match.public_id}/decisions/", {"version": match.version, "option": option},
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_second_game_keeps_the_same_guest(client, catalogue):
    first = play_as_guest(client)
    second = play_as_guest(client, {"opponent": "bots", "bot_1": "random", "bot_2": "greedy"})
    assert first.creator_id == second.creator_id and Guest.objects.count() == 1
    assert second.players == 3


def test_a_forged_form_makes_no_guest_and_no_match(client, catalogue):
    response = client.post("/play/", {"opponent": "automa", "automa_level": "9"})
    assert response.status_code == 400 and b"automa_level" in response.content
    response = client.post("/play/", {"opponent": "people"})
    assert response.status_code == 400
    assert not Guest.objects.exists() and not Match.objects.exists()
    assert "_auth_user_id" not in client.session


def test_a_refused_form_shows_the_choices_again(client, catalogue):
    page = client.post("/play/", {"opponent": "bots", "bot_1": "strong", "bot_2": "grandmaster",
                                  "academy": "on"}).content.decode()
    assert '<option value="strong" title' in page and 'value="strong" title="' in page
    bot_1 = page.split('id="id_bot_1"')[1].split("</select>")[0]
    assert 'value="strong" title="' in bot_1 and bot_1.split('value="strong"')[1].split(">")[0].endswith("selected")
    assert 'id="id_bots_academy" checked' in page


def test_a_guest_has_at_most_the_cap_of_games_in_play(client, catalogue):
    for _ in range(guests.MAX_OPEN_MATCHES):
        play_as_guest(client)
    response = client.post("/play/", AUTOMA)
    assert response.status_code == 409 and b"guest may have" in response.content
    assert Match.objects.count() == guests.MAX_OPEN_MATCHES
    match = Match.objects.first()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    play_as_guest(client)


def test_new_guests_are_limited_per_address(client, catalogue, settings):
    cache.clear()
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "guest": (2, 10**9)}
    for _ in range(2):
        play_as_guest(Client(REMOTE_ADDR="10.1.1.1"))
    response = Client(REMOTE_ADDR="10.1.1.1").post("/play/", AUTOMA)
    assert response.status_code == 429 and Guest.objects.count() == 2
    play_as_guest(Client(REMOTE_ADDR="10.1.1.2"))
    cache.clear()


def test_a_guest_cannot_play_or_chat_with_people(client, catalogue, alice):
    match = play_as_guest(client)
    guest = match.creator
    people = services.create_match(alice, players=2)
    assert client.post(f"/matches/{people.public_id}/join/").status_code == 403
    assert client.post("/matches/", {"players": "2"}).status_code == 403
    assert client.post(f"/api/matches/{people.public_id}/join/").status_code == 403
    assert client.post(f"/api/matches/{match.public_id}/chat/", {"text": "hello"},
                       content_type="application/json").status_code == 403
    assert client.put("/api/notifications/", {"turn_email": "off"}, content_type="application/json").status_code == 403
    assert client.get("/matches/notifications/")["Location"].startswith("/accounts/signup/")
    assert list(people.seats.values_list("user", flat=True)) == [alice.pk]
    assert Match.objects.filter(creator=guest).count() == 1


def test_sign_up_from_a_guest_session_hands_the_games_to_the_account(client, catalogue):
    first = play_as_guest(client)
    second = play_as_guest(client, {"opponent": "bots", "bot_1": "greedy"})
    guest = first.creator
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == "/matches/"
    account = get_user_model().objects.get(username="newcomer")
    assert not get_user_model().objects.filter(pk=guest.pk).exists() and not Guest.objects.exists()
    for match in (first, second):
        match = Match.objects.get(pk=match.pk)
        assert match.creator == account and match.seats.get(seat=0).user == account
        integrity.check_seal(match)  # resealed: the match plays on
    assert client.session["_auth_user_id"] == str(account.pk) and guests.SESSION_KEY not in client.session
    lobby = client.get("/matches/").content.decode()
    assert f"Match {first.public_id}" in lobby.split('id="my-matches"')[1]
    state = services.load_state(Match.objects.get(pk=first.pk))
    services.submit_decision(first.pk, account, first.version, state.pending.options[0])


def test_a_failed_hand_over_leaves_no_account_and_the_guest_as_it_was(client, catalogue, monkeypatch):
    match = play_as_guest(client)
    guest = match.creator

    def broken(match, seats=None):
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(integrity, "reseal", broken)
    with pytest.raises(RuntimeError):
        sign_up(client)
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert Match.objects.get(pk=match.pk).creator == guest and match.seats.get(seat=0).user == guest
    assert Guest.objects.filter(user=guest).exists()


def test_sign_in_from_a_guest_session_hands_the_games_to_the_account(client, catalogue, alice):
    match = play_as_guest(client)
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/matches/"
    match = Match.objects.get(pk=match.pk)
    assert match.creator == alice and match.seats.get(seat=0).user == alice and not Guest.objects.exists()
    integrity.check_seal(match)


def test_a_wrong_password_hands_nothing_over(client, catalogue, alice):
    match = play_as_guest(client)
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert Match.objects.get(pk=match.pk).creator == match.creator and Guest.objects.count() == 1


def test_signing_in_without_a_guest_moves_nothing_and_lands_home(client, catalogue, alice, bob):
    services.play_now(bob, opponent="automa")
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response["Location"] == "/"
    assert Match.objects.get().creator == bob


def test_claim_refuses_to_move_an_account(catalogue, alice, bob):
    match = services.play_now(bob, opponent="automa")
    assert guests.claim(bob, alice) == []
    assert Match.objects.get(pk=match.pk).creator == bob


def test_next_is_carried_through_sign_in_sign_up_and_their_errors(client, db, alice):
    target = "/?opponent=automa&automa_level=2&ravel=on#play-now"
    page = client.get("/accounts/login/", {"next": target}).content.decode()
    assert 'name="next" value="/?opponent=automa&amp;automa_level=2&amp;ravel=on#play-now"' in page
    assert "/accounts/signup/?next=/%3Fopponent%3Dautoma" in page
    wrong = client.post("/accounts/login/", {"username": "alice", "password": "nope", "next": target}).content.decode()
    assert 'name="next" value="/?opponent=automa' in wrong
    signup = client.get("/accounts/signup/", {"next": target}).content.decode()
    assert 'name="next" value="/?opponent=automa' in signup and "/accounts/login/?next=/%3Fopponent" in signup
    mismatch = client.post("/accounts/signup/", {"username": "x1", "password1": PASSWORD, "password2": "other",
                                                 "next": target})
    assert mismatch.status_code == 400 and 'name="next" value="/?opponent=automa' in mismatch.content.decode()
    done = client.post("/accounts/signup/", {"username": "x1", "password1": PASSWORD, "password2": PASSWORD,
                                             "next": target})
    assert done["Location"] == target
    home = Client().get(target).content.decode()  # the choices are there again
    assert '<option value="2" selected>' in home and 'id="id_ravel" checked' in home


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_an_unsafe_next_is_refused(client, db, alice, target):
    page = client.get("/accounts/login/", {"next": target}).content.decode()
    assert "evil" not in page and "javascript" not in page
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD,
                                            "next": target})["Location"] == "/"
    assert sign_up(Client(), "y1", target)["Location"] == "/"
    assert "evil" not in Client().get("/accounts/signup/", {"next": target}).content.decode()


def test_sign_up_refuses_a_guest_name(client, db):
    response = sign_up(client, "Guest-abc")
    assert response.status_code == 400 and not get_user_model().objects.filter(username="Guest-abc").exists()


def test_clean_guests_removes_old_unclaimed_guests_and_their_games(catalogue, alice):
    old, fresh = Client(), Client()
    stale_match = play_as_guest(old)
    kept_match = play_as_guest(fresh)
    mine = services.play_now(alice, opponent="automa")
    long_ago = timezone.now() - timedelta(days=40)
    Guest.objects.filter(user=stale_match.creator).update(created=long_ago)
    Match.objects.filter(pk=stale_match.pk).update(changed=long_ago)
    call_command("clean_guests", "--days", "30", "--dry-run")
    assert Match.objects.filter(pk=stale_match.pk).exists()
    call_command("clean_guests", "--days", "30")
    assert not Match.objects.filter(pk=stale_match.pk).exists()
    assert not get_user_model().objects.filter(pk=stale_match.creator_id).exists()
    assert Match.objects.filter(pk__in=[kept_match.pk, mine.pk]).count() == 2
    assert MatchSeat.objects.filter(user=alice).count() == 1


def test_an_old_guest_still_playing_is_kept(catalogue):
    client = Client()
    match = play_as_guest(client)
    Guest.objects.filter(user=match.creator).update(created=timezone.now() - timedelta(days=40))
    call_command("clean_guests", "--days", "30")
    assert Match.objects.filter(pk=match.pk).exists()


def test_errors_of_guests_are_match_errors():
    assert issubclass(guests.GuestRefused, MatchError) and issubclass(guests.GuestLimit, MatchError)
