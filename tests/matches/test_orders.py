"""Standing orders: offers made on other players' turns are answered by the offered seat's order, logged as such;
without an order the match waits; and every bad input to the orders is refused with its field."""
import json
import random

import pytest

from game.matches import orders, services
from game.models import Match, StandingOrder

from .conftest import moved_long_ago, snapshot, user_at

NOTE = "(answered by a standing order)"


def put(client, url, body):
    return client.put(url, data=json.dumps(body), content_type="application/json")


@pytest.fixture
def three(catalogue, alice, bob, carol):
    match = services.create_match(alice, players=3)
    Match.objects.filter(pk=match.pk).update(seed=1)  # a game whose random playout meets offers early
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    return Match.objects.get(pk=match.pk)


def play(match_id, seed, decisions):
    """Random legal decisions by whoever is asked; returns the offers the match stopped at (seat, version)."""
    rng = random.Random(seed)
    waited = []
    for _ in range(decisions):
        match = Match.objects.get(pk=match_id)
        state = services.load_state(match)
        if state.pending is None:
            break
        if orders.is_offer(state):
            waited.append((state.pending.player, match.version))
        option = rng.choice(state.legal_options())
        services.submit_decision(match_id, user_at(match, state.pending.player), match.version, option.to_dict())
    return waited


def test_without_orders_the_match_waits_for_an_offer(three):
    assert play(three.pk, seed=1, decisions=140)


def test_orders_answer_every_offer_and_the_log_says_so(three, api_as):
    for seat in range(3):
        response = put(api_as(user_at(three, seat)), f"/api/matches/{three.public_id}/orders/",
                       {"free_offer": "yes", "paid_offer": "no"})
        assert response.status_code == 200, response.json()
    assert play(three.pk, seed=1, decisions=140) == []  # never waited on an offer
    match = Match.objects.get(pk=three.pk)
    answered = list(match.decisions.filter(by_order=True))
    assert answered and {d.kind for d in answered} <= {"yes", "no"}
    # the mark is data; the label says it in words, and no decision without the mark says it
    assert all(d.label.endswith(NOTE) for d in answered)
    assert not match.decisions.filter(by_order=False, label__endswith=NOTE).exists()
    # Each answer matches the order: replaying up to it, a free offer was taken and a paid one declined.
    for decision in answered:
        before = services.state_at(match, decision.number - 1)
        assert orders.is_offer(before) and before.pending.player == decision.seat
        assert decision.kind == ("yes" if orders.offer_is_free(before) else "no")
    # The log replays and the stored chain holds.
    assert services.replay(match).to_json() == match.state
    lines = [line for group in api_as(None).get(f"/api/matches/{match.public_id}/").json()["log"]
             for line in group["lines"]]
    told = {line["decision"] for line in lines if line["text"].endswith(NOTE + ".")}
    shown = {line["decision"] for line in lines} & {d.number for d in answered}
    assert shown and told == shown


def test_orders_can_be_read_and_changed_any_time(three, api_as, alice):
    client = api_as(alice)
    url = f"/api/matches/{three.public_id}/orders/"
    assert client.get(url).json()["free_offer"] == "ask"
    assert put(client, url, {"paid_offer": "no"}).json()["paid_offer"] == "no"
    assert put(client, url, {"free_offer": "yes"}).json() | {"choices": None} == {
        "seat": 0, "free_offer": "yes", "paid_offer": "no", "choices": None}
    assert StandingOrder.objects.get(match=three, seat=0).paid_offer == "no"


@pytest.mark.parametrize("body, field", [
    ({"free_offer": "maybe"}, "free_offer"), ({"paid_offer": 1}, "paid_offer"), ({"paid_offer": None}, "paid_offer"),
    ({"always": "yes"}, "always"), ([1], "body"),
])
def test_bad_orders_name_the_field_and_change_nothing(three, api_as, alice, body, field):
    before = snapshot(three.pk)
    response = put(api_as(alice), f"/api/matches/{three.public_id}/orders/", body)
    assert response.status_code == 400 and response.json()["field"] == field
    assert not StandingOrder.objects.exists() and snapshot(three.pk) == before


def test_orders_belong_to_seated_players(three, api_as, make_user):
    stranger = make_user("dave")
    url = f"/api/matches/{three.public_id}/orders/"
    assert put(api_as(stranger), url, {"free_offer": "yes"}).status_code == 403
    assert api_as(stranger).get(url).status_code == 403
    assert put(api_as(None), url, {"free_offer": "yes"}).status_code == 403
    assert put(api_as(stranger), "/api/matches/999/orders/", {"free_offer": "yes"}).status_code == 404
    assert not StandingOrder.objects.exists()


def test_the_board_form_sets_orders_and_refuses_bad_values(three, client, alice):
    client.force_login(alice)
    response = client.post(f"/matches/{three.public_id}/orders/", {"free_offer": "yes", "paid_offer": "ask"})
    assert response.status_code == 302
    assert StandingOrder.objects.get(match=three, seat=0).free_offer == "yes"
    response = client.post(f"/matches/{three.public_id}/orders/", {"free_offer": "always", "paid_offer": "ask"})
    assert response.status_code == 400 and "free_offer" in response.content.decode()
    assert StandingOrder.objects.get(match=three, seat=0).free_offer == "yes"
    page = client.get(f"/matches/{three.public_id}/").content.decode()
    assert 'id="orders-form"' in page and '<option value="yes" selected>' in page


# -- the alert when the match waits on an offer -------------------------------------------------------------------

def offer_waiting(match_id, seed, decisions, capture):
    """Play until the match waits on an offer to a seat that is not the one whose turn it is; (seat, version)."""
    rng = random.Random(seed)
    for _ in range(decisions):
        match = Match.objects.get(pk=match_id)
        state = services.load_state(match)
        if orders.is_offer(state):
            return state.pending.player, match.version
        option = rng.choice(state.legal_options())
        with capture(execute=True):
            services.submit_decision(match_id, user_at(match, state.pending.player), match.version,
                                     option.to_dict())
        moved_long_ago(match_id)  # each player moves and leaves: the offered one is emailed, not held at the table
    raise AssertionError("no offer waited")


def test_a_player_an_offer_waits_on_is_alerted_once(three, client, mailoutbox, nobody_at_a_table,
                                                    django_capture_on_commit_callbacks):
    from game.matches import notify
    from game.models import TurnNotice

    for user in (three.creator, *[s.user for s in three.seats.all()]):
        user.email = f"{user.username}@example.org"
        user.save()
    seat, version = offer_waiting(three.pk, 1, 140, django_capture_on_commit_callbacks)
    match = Match.objects.get(pk=three.pk)
    offered = user_at(match, seat)
    assert match.to_move == seat  # the match waits for the offered player, and their clock runs
    assert notify.your_turn_count(offered) == 1
    client.force_login(offered)
    page = client.get("/cards/").content.decode()
    assert "<title>(1) " in page and 'id="turn-count"' in page
    notices = TurnNotice.objects.filter(match=match, user=offered, version=version, kind=TurnNotice.Kind.TURN)
    assert notices.count() == 1 and notices.get().sent is not None
    assert [m.to[0] for m in mailoutbox if f"match {match.public_id}" in m.subject][-1] == offered.email
    # asked again (a task run twice), nothing more is sent
    sent = len(mailoutbox)
    assert notify.turn_gained(match, offered, version) == [] and len(mailoutbox) == sent


def test_an_offer_an_order_answers_alerts_nobody(catalogue, alice, bob, carol, api_as,
                                                django_capture_on_commit_callbacks):
    from game.models import TurnNotice

    for user in (alice, bob, carol):  # notices are noted only for players with an address to send them to
        user.email = f"{user.username}@example.org"
        user.save()
    match = services.create_match(alice, players=3)
    Match.objects.filter(pk=match.pk).update(seed=4)  # an offer answered mid-turn early in this playout
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    for seat in range(3):
        put(api_as(user_at(match, seat)), f"/api/matches/{match.public_id}/orders/", {"free_offer": "yes",
                                                                               "paid_offer": "yes"})
    rng = random.Random(3)
    resumed = []  # decisions after which an order answered and the decider's turn went on
    for _ in range(40):
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
        with django_capture_on_commit_callbacks(execute=True):
            after = services.submit_decision(match.pk, user_at(match, state.pending.player), match.version,
                                             rng.choice(state.legal_options()).to_dict())
        if after.version > match.version + 1 and after.to_move == state.pending.player:
            resumed.append((after.version, state.pending.player))
    assert resumed
    for version, seat in resumed:
        # the decider never waited, so is not told it is their turn
        assert not TurnNotice.objects.filter(match=match, version=version, user=user_at(match, seat)).exists()
    # the turn changes people made are still told, once each
    assert TurnNotice.objects.filter(match=match, kind=TurnNotice.Kind.TURN).count() >= 5
