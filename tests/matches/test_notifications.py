"""Turn emails: exactly one per turn change to the player who gains the turn, never to a bot, as each player's
preferences say; none while the player is at the table, and one email collecting what they missed when they leave;
the daily digest; the "your turn" count in the navigation and page title."""
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game.matches import notify, services
from game.models import Match, NotificationPreference, TurnNotice
from tests.races import at_once

from .conftest import later, moved_long_ago, user_at

pytestmark = pytest.mark.usefixtures("nobody_at_a_table")


@pytest.fixture
def mailed(alice, bob, carol):
    for user in (alice, bob, carol):
        user.email = f"{user.username}@example.org"
        user.save()


def turn_changes(match):
    """(version, seat) of every moment a seat gained the turn, read from the stored log and the engine."""
    changes = []
    state = None
    previous = None
    for version in range(match.version + 1):
        state = services.state_at(match, version)
        if state.pending is not None and state.pending.player != previous:
            changes.append((version, state.pending.player))
        previous = state.pending.player if state.pending is not None else None
    return changes


def play(match_id, decisions, seed, capture, away=True, until=None):
    """Random legal decisions by the players to move. `away`: each player moves and leaves (their moves are dated an
    hour back), as players answering turn emails do; otherwise they play on at the table. Stops early once
    `until(match)` holds."""
    rng = random.Random(seed)
    for _ in range(decisions):
        match = Match.objects.get(pk=match_id)
        state = services.load_state(match)
        if state.pending is None or (until is not None and until(match)):
            return
        with capture(execute=True):
            services.submit_decision(match_id, user_at(match, state.pending.player), match.version,
                                     rng.choice(state.legal_options()).to_dict())
        if away:
            moved_long_ago(match_id)


def test_exactly_one_email_per_turn_change_to_the_player_who_gains_it(catalogue, alice, bob, carol, mailed,
                                                                      mailoutbox,
                                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(alice, players=3)
        services.join_match(match.pk, bob)
        services.join_match(match.pk, carol)
        moved_long_ago(match.pk)  # before the first turn is noted (when the block ends): they joined and left
    play(match.pk, 60, seed=5, capture=django_capture_on_commit_callbacks)
    match = Match.objects.get(pk=match.pk)
    changes = turn_changes(match)
    assert len(changes) > 5
    expected = [f"{user_at(match, seat).username}@example.org" for _, seat in changes]
    assert [m.to[0] for m in mailoutbox] == expected
    assert all(m.subject == f"Wyrmdex: your turn in match {match.public_id}" for m in mailoutbox)
    assert all(f"/matches/{match.public_id}/" in m.body for m in mailoutbox)
    # Delivering any notice again sends nothing more.
    for notice in TurnNotice.objects.all():
        assert notify.deliver(notice.pk) is False
    assert len(mailoutbox) == len(expected)


def test_no_email_for_a_seat_played_by_a_bot(catalogue, alice, bob, mailed, mailoutbox,
                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(alice, players=2, on_timeout="bot")
        services.join_match(match.pk, bob)
        moved_long_ago(match.pk)
    late = user_at(match, Match.objects.get(pk=match.pk).to_move)
    mailoutbox.clear()
    for _ in range(30):  # each sweep hands the late seat to a bot; the queue then plays it (and, later, both)
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            break
        with django_capture_on_commit_callbacks(execute=True):
            services.sweep(later(match))
    assert Match.objects.get(pk=match.pk).version > 0
    assert late.email not in [m.to[0] for m in mailoutbox]


def test_preferences_off_and_digest(catalogue, alice, bob, carol, mailed, mailoutbox,
                                    django_capture_on_commit_callbacks):
    NotificationPreference.objects.create(user=alice, turn_email="off")
    NotificationPreference.objects.create(user=bob, turn_email="digest")
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(alice, players=3)
        services.join_match(match.pk, bob)
        services.join_match(match.pk, carol)
        moved_long_ago(match.pk)  # before the first turn is noted (when the block ends): they joined and left
    play(match.pk, 60, seed=8, capture=django_capture_on_commit_callbacks)
    match = Match.objects.get(pk=match.pk)
    changes = turn_changes(match)
    seats = {u.username: services.seat_of(match, u) for u in (alice, bob, carol)}
    assert [m.to[0] for m in mailoutbox] == ["carol@example.org"] * sum(1 for _, s in changes if s == seats["carol"])
    assert not TurnNotice.objects.filter(user=alice).exists()
    bob_turns = sum(1 for _, s in changes if s == seats["bob"])
    assert TurnNotice.objects.filter(user=bob, digest=True, sent__isnull=True).count() == bob_turns > 0
    mailoutbox.clear()
    assert notify.send_digests() == 1
    assert notify.send_digests() == 0  # each turn is in one digest only
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["bob@example.org"]
    assert f"/matches/{match.public_id}/" in mailoutbox[0].body


@pytest.mark.parametrize("body, field", [
    ({"turn_email": "sometimes"}, "turn_email"), ({"turn_email": 1}, "turn_email"),
    ({"reminders": "yes"}, "reminders"), ({"sound": True}, "sound"),
])
def test_bad_preferences_are_refused_and_change_nothing(api_as, alice, body, field):
    NotificationPreference.objects.create(user=alice, turn_email="digest", reminders=True)
    response = api_as(alice).put("/api/notifications/", body, format="json")
    assert response.status_code == 400 and response.json()["field"] == field
    prefs = NotificationPreference.objects.get(user=alice)
    assert (prefs.turn_email, prefs.reminders) == ("digest", True)


def test_preferences_through_the_api(api_as, alice):
    assert api_as(alice).get("/api/notifications/").json() == {"turn_email": "each", "reminders": True,
                                                               "email": None}
    response = api_as(alice).put("/api/notifications/", {"turn_email": "off", "reminders": False}, format="json")
    assert response.status_code == 200
    prefs = NotificationPreference.objects.get(user=alice)
    assert (prefs.turn_email, prefs.reminders) == ("off", False)
    assert api_as(None).get("/api/notifications/").status_code == 403


def test_preferences_page_saves_and_refuses_a_bad_address(client, alice):
    client.force_login(alice)
    response = client.post("/matches/notifications/", {"email": "not an address", "turn_email": "digest"})
    assert response.status_code == 400 and "not an email address" in response.content.decode()
    assert not NotificationPreference.objects.filter(user=alice).exists()
    response = client.post("/matches/notifications/", {"email": "a@example.org", "turn_email": "wrong"})
    assert response.status_code == 400 and "turn_email" in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == ""
    response = client.post("/matches/notifications/", {"email": "a@example.org", "turn_email": "digest"})
    assert response.status_code == 200 and "Saved." in response.content.decode()
    alice.refresh_from_db()
    prefs = NotificationPreference.objects.get(user=alice)
    assert (alice.email, prefs.turn_email, prefs.reminders) == ("a@example.org", "digest", False)


def test_the_turn_count_shows_in_the_navigation_and_the_title(client, started, alice, bob):
    to_move = user_at(started, started.to_move)
    waiting = bob if to_move == alice else alice
    client.force_login(to_move)
    page = client.get("/cards/").content.decode()
    assert "<title>(1) " in page and 'id="turn-count"' in page
    client.force_login(waiting)
    page = client.get("/cards/").content.decode()
    assert "<title>(" not in page and 'id="turn-count"' not in page


def test_a_player_without_an_email_address_is_noted_nothing_until_they_give_one(catalogue, alice, bob, mailoutbox,
                                                                                django_capture_on_commit_callbacks):
    """Signing up asks for no address: such a player's turns leave no notice rows (there is nowhere to send them,
    now or in a digest). Once they give an address, the next turn they gain is emailed."""
    with django_capture_on_commit_callbacks(execute=True):
        match = services.create_match(alice, players=2)
        services.join_match(match.pk, bob)
        moved_long_ago(match.pk)
    play(match.pk, 30, seed=7, capture=django_capture_on_commit_callbacks)
    assert len(turn_changes(Match.objects.get(pk=match.pk))) > 3
    assert not TurnNotice.objects.exists() and mailoutbox == []
    for user in (alice, bob):
        user.email = f"{user.username}@example.org"
        user.save()
    play(match.pk, 30, seed=8, capture=django_capture_on_commit_callbacks)
    assert TurnNotice.objects.filter(match=match).exists()
    assert mailoutbox and {m.to[0] for m in mailoutbox} <= {"alice@example.org", "bob@example.org"}


@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_the_first_save_of_preferences_saves_them_once(alice):
    """Two saves sent together before any preferences exist: both read "none yet", then both would insert. They are
    answered as two saves one after another are, and the player has one row of preferences."""
    clicks = [Client(raise_request_exception=False) for _ in range(2)]
    for client in clicks:
        client.force_login(alice)

    def save(client):
        return client.post("/matches/notifications/", {"email": "alice@example.org", "turn_email": "digest"})

    answers = at_once([lambda client=client: save(client) for client in clicks], hold=NotificationPreference)
    assert [answer.status_code for answer in answers] == [200, 200]
    assert all("Saved." in answer.content.decode() for answer in answers)
    prefs = NotificationPreference.objects.get(user=alice)
    assert (prefs.turn_email, prefs.reminders) == ("digest", False)


# -- at the table: no email while the page is open or the player just moved; one email for what they missed --------

def two_player(alice, bob, capture):
    """A match the two opened and joined, then left (their seats were taken long ago)."""
    with capture(execute=True):
        match = services.create_match(alice, players=2)
        services.join_match(match.pk, bob)
        moved_long_ago(match.pk)
    return Match.objects.get(pk=match.pk)


def waits_for(user):
    """Whether the match waits for `user` at the start of their turn (they made no decision in it yet)."""
    def waits(match):
        seat = services.seat_of(match, user)
        last = match.decisions.order_by("-number").first()
        return match.to_move == seat and (last is None or last.seat != seat)
    return waits


def test_no_email_while_the_page_is_open_and_one_email_for_the_turn_missed(catalogue, alice, bob, mailed, api_as,
                                                                           mailoutbox,
                                                                           django_capture_on_commit_callbacks):
    match = two_player(alice, bob, django_capture_on_commit_callbacks)
    page = api_as(bob)
    assert page.get(f"/api/matches/{match.public_id}/").status_code == 200  # bob's board reads the match
    bob_seat = services.seat_of(match, bob)
    # Both move and leave at once (their moves are old); bob's page stays open on the match and keeps reading it.
    for seed in range(3):
        play(match.pk, 8, seed=seed, capture=django_capture_on_commit_callbacks)
        page.get(f"/api/matches/{match.public_id}/")
    play(match.pk, 40, seed=9, capture=django_capture_on_commit_callbacks, until=waits_for(bob))
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and waits_for(bob)(match)
    changes = turn_changes(match)
    assert sum(1 for _, seat in changes if seat == bob_seat) >= 3
    # Alice, never at the table, got an email each time; bob none, his turns are held.
    assert [m.to[0] for m in mailoutbox] == ["alice@example.org"] * sum(1 for _, s in changes if s != bob_seat)
    assert set(TurnNotice.objects.filter(user=bob).values_list("held", "sent")) == {(True, None)}
    mailoutbox.clear()
    now = timezone.now()
    assert notify.send_held(now) == 0 and mailoutbox == []  # bob's page read the match just now: still there
    gone = now + notify.AT_TABLE + timedelta(seconds=1)
    assert notify.send_held(gone) == 1
    assert notify.send_held(gone) == 0 and notify.send_held(gone + timedelta(hours=1)) == 0  # once only
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["bob@example.org"]
    assert mailoutbox[0].subject == f"Wyrmdex: your turn in match {match.public_id}"
    assert "it is your turn in 1 match:" in mailoutbox[0].body
    assert f"/matches/{match.public_id}/" in mailoutbox[0].body
    assert not TurnNotice.objects.filter(user=bob, sent__isnull=True).exists()


def test_a_turn_answered_at_the_table_sends_nothing_later(catalogue, alice, bob, mailed, api_as, mailoutbox,
                                                          django_capture_on_commit_callbacks):
    """Bob's page is open when his turn comes; he makes a first decision of it and leaves in the middle of the turn
    (the match still waits for him). He saw it: nothing is sent later. Nor for a turn he played to its end."""
    match = two_player(alice, bob, django_capture_on_commit_callbacks)
    api_as(bob).get(f"/api/matches/{match.public_id}/")
    bob_seat = services.seat_of(match, bob)

    def in_the_middle_of_his_turn(match):
        last = match.decisions.order_by("-number").first()
        return match.to_move == bob_seat and last is not None and last.seat == bob_seat

    play(match.pk, 40, seed=3, capture=django_capture_on_commit_callbacks, until=waits_for(bob))
    play(match.pk, 60, seed=4, capture=django_capture_on_commit_callbacks, until=in_the_middle_of_his_turn)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and in_the_middle_of_his_turn(match)
    assert TurnNotice.objects.filter(user=bob, held=True).exists()  # gained while at the table
    mailoutbox.clear()
    assert notify.send_held(timezone.now() + timedelta(hours=1)) == 0
    assert mailoutbox == []
    assert not TurnNotice.objects.filter(user=bob, sent__isnull=True).exists()  # done: none is sent later
    assert notify.send_held(timezone.now() + timedelta(hours=2)) == 0


def test_a_game_against_a_bot_at_the_table_sends_one_email_after_the_player_leaves(
        catalogue, alice, mailed, mailoutbox, django_capture_on_commit_callbacks):
    """The issue's case: a player plays a bot on the open board (no page reads here: their own moves of the last
    minutes keep them at the table). Nothing while they play; when they leave, one email, for the turn that waits."""
    with django_capture_on_commit_callbacks(execute=True):
        match = services.play_now(alice, opponent="bots", bot_levels=("random",))
    play(match.pk, 30, seed=2, capture=django_capture_on_commit_callbacks, away=False)
    play(match.pk, 30, seed=3, capture=django_capture_on_commit_callbacks, away=False, until=waits_for(alice))
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and waits_for(alice)(match)
    assert TurnNotice.objects.filter(user=alice, kind=TurnNotice.Kind.TURN).count() > 3
    assert mailoutbox == []
    assert notify.send_held(timezone.now() + notify.AT_TABLE * 2) == 0  # moved a moment ago: still playing
    assert notify.send_held(timezone.now() + notify.JUST_MOVED + timedelta(seconds=1)) == 1
    assert [m.to for m in mailoutbox] == [["alice@example.org"]]
    assert f"/matches/{match.public_id}/" in mailoutbox[0].body


def test_the_turns_missed_in_several_matches_come_in_one_email(catalogue, alice, bob, carol, mailed, api_as,
                                                               mailoutbox, django_capture_on_commit_callbacks):
    first = two_player(alice, bob, django_capture_on_commit_callbacks)
    second = two_player(carol, bob, django_capture_on_commit_callbacks)
    for match in (first, second):
        api_as(bob).get(f"/api/matches/{match.public_id}/")
        play(match.pk, 40, seed=match.pk, capture=django_capture_on_commit_callbacks, until=waits_for(bob))
    assert "bob@example.org" not in [m.to[0] for m in mailoutbox]
    mailoutbox.clear()
    assert notify.send_held(timezone.now() + timedelta(minutes=10)) == 1
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["bob@example.org"]
    assert mailoutbox[0].subject == "Wyrmdex: your turn in 2 matches"
    assert all(f"/matches/{m.public_id}/" in mailoutbox[0].body for m in (first, second))


def test_an_unchanged_poll_keeps_the_player_at_the_table_and_a_forged_tag_names_nobody(
        catalogue, alice, bob, client, django_capture_on_commit_callbacks):
    """An open board's polls are mostly 304s, answered before the session is read: the tag a seated player was
    given names them, signed, so those polls keep them at the table too."""
    match = two_player(alice, bob, django_capture_on_commit_callbacks)
    url = f"/api/matches/{match.public_id}/"
    client.force_login(bob)
    tag = client.get(url)["ETag"]
    long_ago = timezone.now() - timedelta(minutes=10)
    notify.at_table(match.pk, bob.pk, now=long_ago)  # as if that read had been long ago
    assert not notify.is_at_table(match.pk, bob.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert notify.is_at_table(match.pk, bob.pk)
    forged = tag.replace(f"-p{bob.pk}.", f"-p{alice.pk}.")
    assert forged != tag
    assert client.get(url, HTTP_IF_NONE_MATCH=forged).status_code == 200
    assert not notify.is_at_table(match.pk, alice.pk)
    client.force_login(alice)  # the board page itself counts too
    assert client.get(f"/matches/{match.public_id}/").status_code == 200
    assert notify.is_at_table(match.pk, alice.pk)


@pytest.mark.django_db(transaction=True)
def test_two_collections_at_once_send_one_email(catalogue, alice, bob, mailed, mailoutbox):
    """Two sweeps at the same moment (two workers, a run that is late): each reads the held notice, one claims it."""
    match = services.create_match(alice, players=2)  # the queue notes the first turn at once: its player just sat
    services.join_match(match.pk, bob)               # down, so it is held
    match = Match.objects.get(pk=match.pk)
    waiting = user_at(match, match.to_move)
    assert TurnNotice.objects.filter(user=waiting, held=True, sent__isnull=True).count() == 1 and mailoutbox == []
    gone = timezone.now() + timedelta(minutes=10)
    assert sorted(at_once([lambda: notify.send_held(gone)] * 2, hold=TurnNotice)) == [0, 1]
    assert [m.to for m in mailoutbox] == [[waiting.email]]
