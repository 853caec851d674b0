"""The seal covers the match's record too: its status, ending, places, whose move and its seats (account, controller,
bot level, out). A record changed by hand (a finished status, a seat handed to another account) is found by
`verify_matches`, refused clearly everywhere (page, API, moves, resign, abort, chat, orders, bots, sweeps) and
nothing is changed; the services that change the record (leave, time out to a bot, abort, the end) reseal it."""
import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.core import mail
from django.db.models import F

from game.matches import integrity, orders, services
from game.matches.errors import MatchDamaged
from game.models import ChatMessage, Match, MatchSeat, StandingOrder

from .conftest import later, play_randomly, user_at
from .test_integrity import seal_existing, verify_command

seal_then = importlib.import_module("game.migrations.0003_match_integrity").seal_then
seal_the_record = importlib.import_module("game.migrations.0008_seal_covers_record").seal_the_record


def stored(match_id):
    """Everything stored about a match and its seats, to compare before and after a refusal."""
    match = Match.objects.get(pk=match_id)
    return (match.status, match.ending, match.places, match.to_move, match.version, match.chain, match.seal,
            json.dumps(match.state, sort_keys=True), match.deadline, match.reminded,
            list(match.decisions.values_list("number", "kind", "args")),
            list(match.seats.values_list("seat", "user", "controller", "level", "out", "out_at")),
            ChatMessage.objects.filter(match=match).count(), StandingOrder.objects.filter(match=match).count())


@pytest.fixture
def played(started):
    match = play_randomly(started.pk, 12, seed=5)
    assert match.status == Match.Status.PLAYING and match.version == 12
    return match


def finish_by_hand(match):
    """The status set to a finished, scored game (with places) while the game is not over."""
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, ending=Match.Ending.SCORED,
                                             places=[1, 2], to_move=None, deadline=None)


def hand_seat_to(match, user):
    """The seat to move handed to another account."""
    MatchSeat.objects.filter(match=match, seat=Match.objects.get(pk=match.pk).to_move).update(user=user)


def give_seat_to_a_bot(match):
    MatchSeat.objects.filter(match=match, seat=1).update(controller=MatchSeat.Controller.BOT, level="random")


def move_the_turn(match):
    Match.objects.filter(pk=match.pk).update(to_move=1 - F("to_move"))


def test_a_finished_status_set_by_hand_is_reported_by_the_command(played):
    finish_by_hand(played)
    code, out = verify_command("--replay", str(played.pk))
    assert code == 1 and "status, places or seats were changed outside the game" in out


def test_replay_finds_a_finished_status_even_when_its_seal_was_recomputed(played):
    finish_by_hand(played)
    seal_existing(django_apps, None)  # as someone who recomputes every hash would
    assert integrity.verify(Match.objects.get(pk=played.pk)) == []
    code, out = verify_command("--replay", str(played.pk))
    assert code == 1 and "its game is not over, but the match says finished" in out


def test_replay_finds_a_turn_moved_by_hand_even_when_its_seal_was_recomputed(played):
    move_the_turn(played)
    seal_existing(django_apps, None)
    code, out = verify_command("--replay", str(played.pk))
    assert code == 1 and "is to move, but the game waits for seat" in out


def test_a_finished_status_set_by_hand_is_refused_on_the_page_and_the_api_not_a_500(played, client, api_as, alice):
    finish_by_hand(played)
    before = stored(played.pk)
    client.force_login(alice)
    page = client.get(f"/matches/{played.public_id}/")
    assert page.status_code == 409 and "stored record is damaged" in page.content.decode()
    for url in (f"/api/matches/{played.public_id}/", f"/api/matches/{played.public_id}/options/",
                f"/api/matches/{played.public_id}/replay/3/"):
        answer = api_as(alice).get(url)
        assert (answer.status_code, answer.json()["code"]) == (409, "match_damaged"), url
    assert api_as(None).get(f"/api/matches/{played.public_id}/").status_code == 409
    assert stored(played.pk) == before


def test_a_seat_handed_to_another_account_is_found_and_that_account_cannot_move(played, api_as, carol):
    owner = user_at(played, played.to_move)
    hand_seat_to(played, carol)
    before = stored(played.pk)
    option = played.state["pending"]["options"][0]
    for user in (carol, owner):  # the new holder is refused as damaged, and so is the owner (not "not seated")
        answer = api_as(user).post(f"/api/matches/{played.public_id}/decisions/",
                                   {"version": played.version, "option": option}, format="json")
        assert (answer.status_code, answer.json()["code"]) == (409, "match_damaged"), answer.json()
        turn = api_as(user).post(f"/api/matches/{played.public_id}/turns/",
                                 {"decisions": [{"version": played.version, "option": option}]}, format="json")
        assert turn.status_code == 409
    assert stored(played.pk) == before
    code, out = verify_command(str(played.pk))
    assert code == 1 and "seats were changed outside the game" in out


@pytest.mark.parametrize("damage", [finish_by_hand, give_seat_to_a_bot, move_the_turn])
def test_resigning_a_damaged_match_is_refused_and_stores_nothing(played, damage, api_as, client, alice):
    damage(played)
    before = stored(played.pk)
    with pytest.raises(MatchDamaged):
        services.resign(played.pk, alice)
    answer = api_as(alice).post(f"/api/matches/{played.public_id}/resign/")
    assert (answer.status_code, answer.json()["code"]) == (409, "match_damaged")
    assert "Nothing was changed" in answer.json()["detail"]
    client.force_login(alice)
    page = client.post(f"/matches/{played.public_id}/resign/")
    assert page.status_code == 409 and "stored record is damaged" in page.content.decode()
    assert stored(played.pk) == before


def test_every_other_change_of_a_damaged_match_is_refused_and_stores_nothing(played, alice, bob, client):
    move_the_turn(played)
    before = stored(played.pk)
    for attempt in (lambda: services.post_chat(played.pk, alice, "hello"),
                    lambda: orders.set_orders(played.pk, alice, {"free_offer": "yes"}),
                    lambda: services.abort_match(played.pk, alice),
                    lambda: services.on_deadline(played.pk, played.version, later(played)),
                    lambda: services.remind(played.pk, later(played, -3600))):
        with pytest.raises(MatchDamaged):
            attempt()
    client.force_login(bob)
    assert client.post(f"/matches/{played.public_id}/chat/", {"text": "hi"}).status_code == 409
    assert stored(played.pk) == before


def test_the_sweep_and_the_bots_leave_a_damaged_match_as_it_is(catalogue, alice, carol, caplog):
    match = services.play_now(alice, opponent="bots", bot_levels=["random"])
    user_move = Match.objects.get(pk=match.pk)
    option = user_move.state["pending"]["options"][0]
    services.submit_decision(match.pk, alice, user_move.version, option)
    match = Match.objects.get(pk=match.pk)
    while match.to_move == 0 and match.status == Match.Status.PLAYING:  # until the bot is to move
        services.submit_decision(match.pk, alice, match.version, match.state["pending"]["options"][0])
        match = Match.objects.get(pk=match.pk)
    assert match.to_move == 1
    MatchSeat.objects.filter(match=match, seat=1).update(user=carol, controller=MatchSeat.Controller.PERSON)
    before = stored(match.pk)
    assert services.machine_move(match.pk, match.version) == 0
    services.sweep(later(match))
    assert stored(match.pk) == before
    assert any("failed its integrity check" in r.getMessage() for r in caplog.records)
    assert not mail.outbox


def test_the_services_that_change_the_record_reseal_it(catalogue, alice, bob, carol):
    """A seat timed out to a bot, a seat that left, and the end of the match by leaving all keep a whole seal."""
    match = services.create_match(alice, players=3, on_timeout="bot")
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    match = Match.objects.get(pk=match.pk)
    services.on_deadline(match.pk, 0, later(match))  # the seat to move goes to a bot
    assert integrity.verify(Match.objects.get(pk=match.pk), replay=True) == []
    services.resign(match.pk, next(u for u in (alice, bob, carol) if u != user_at(match, match.to_move)))
    assert integrity.verify(Match.objects.get(pk=match.pk), replay=True) == []
    still_in = [s.user for s in Match.objects.get(pk=match.pk).seats.all() if not s.out and s.controller == "person"]
    services.resign(match.pk, still_in[0])
    ended = Match.objects.get(pk=match.pk)
    assert (ended.status, ended.ending) == (Match.Status.FINISHED, Match.Ending.LAST_STANDING)
    assert integrity.verify(ended, replay=True) == []
    services.load_state(ended)


def test_an_aborted_match_stays_whole(started, alice):
    services.abort_match(started.pk, alice)
    assert integrity.verify(Match.objects.get(pk=started.pk), replay=True) == []


def test_the_migration_reseals_whole_matches_under_the_new_coverage_and_leaves_damaged_ones(played, catalogue,
                                                                                            alice, bob):
    damaged = services.create_match(alice, players=2)
    services.join_match(damaged.pk, bob)
    damaged = play_randomly(damaged.pk, 3, seed=2)
    for match in (played, damaged):  # sealed as before the record was covered
        match = Match.objects.get(pk=match.pk)
        Match.objects.filter(pk=match.pk).update(seal=seal_then(match, match.chain))
    finish_by_hand(damaged)  # damaged after that seal: the old seal does not cover it, but the state is whole
    Match.objects.filter(pk=damaged.pk).update(state={**damaged.state, "turns": 999})
    seal_the_record(django_apps, None)
    assert integrity.verify(Match.objects.get(pk=played.pk), replay=True) == []
    with pytest.raises(MatchDamaged):
        services.load_state(Match.objects.get(pk=damaged.pk))
    user = user_at(played, played.to_move)
    match = Match.objects.get(pk=played.pk)
    assert services.submit_decision(played.pk, user, match.version, match.state["pending"]["options"][0]).version == 13
