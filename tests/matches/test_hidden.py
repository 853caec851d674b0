"""Hidden information: another player's view never holds your hand, by index or by name, at any step."""
import json
import random

from game.matches import present, services
from game.models import Match, MatchDecision

from .conftest import user_at


def hand_names(match, seat):
    state = services.load_state(match)
    cards = present.board_cards(match.catalogue_id)
    pl = state.players[seat]
    return ({cards["dragons"][d]["name"] for d in pl.hand}, set(pl.hand), set(pl.caves))


def test_no_view_of_another_player_holds_your_hand(api_as, started, alice, bob, carol):
    rng = random.Random(7)
    for _ in range(40):
        match = Match.objects.get(pk=started.pk)
        for seat, viewer in ((0, bob), (1, alice), (0, carol), (1, None)):
            names, dragons, caves = hand_names(match, seat)
            body = api_as(viewer).get(f"/api/matches/{match.public_id}/").json()
            hidden = body["view"]["players"][seat]
            assert hidden["hand"] is None and hidden["cave_cards"] is None
            assert hidden["hand_count"] == len(dragons) and hidden["cave_card_count"] == len(caves)
            assert not dragons & {int(i) for i in body["cards"]["dragons"]}
            assert not caves & {int(i) for i in body["cards"]["caves"]}
            text = json.dumps(body)
            # Whole JSON strings: "Haughty Wyvern" in hand must not be found inside "Particularly Haughty Wyvern".
            assert not [name for name in names if json.dumps(name) in text], "a hand card's name reached another player"
        state = services.load_state(match)
        option = rng.choice(state.legal_options())
        services.submit_decision(match.pk, user_at(match, state.pending.player), match.version, option.to_dict())


def test_your_own_view_shows_your_hand_with_card_details(api_as, started, alice):
    body = api_as(alice).get(f"/api/matches/{started.public_id}/").json()
    mine = body["view"]["players"][0]
    assert len(mine["hand"]) == 3 and len(mine["cave_cards"]) == 3
    for index in mine["hand"]:
        card = body["cards"]["dragons"][str(index)]
        assert card["name"] and card["url"].startswith("/cards/dragons/")


def test_the_log_names_a_drawn_or_kept_card_only_to_its_owner(api_as, started, alice, bob, carol):
    """The story of the setup: each player's dealt and kept cards are named to them, counted to the others."""
    match = Match.objects.get(pk=started.pk)
    for _ in range(4):  # both players choose their cards and resources
        state = services.load_state(match)
        services.submit_decision(match.pk, user_at(match, state.pending.player), match.version,
                                 state.legal_options()[0].to_dict())
        match = Match.objects.get(pk=match.pk)
    cards = present.board_cards(match.catalogue_id)
    state = services.load_state(match)
    for seat, owner in ((0, alice), (1, bob)):
        hand = {json.dumps(cards["dragons"][d]["name"]) for d in state.players[seat].hand}
        for viewer in (alice, bob, carol, None):
            lines = [line for group in api_as(viewer).get(f"/api/matches/{match.public_id}/").json()["log"]
                     for line in group["lines"] if line["seat"] == seat and line["kind"] in ("dealt", "kept")]
            assert len(lines) == 2
            named = [name for name in hand if any(name[1:-1] in line["text"] for line in lines)]
            assert bool(named) == (viewer == owner), (seat, viewer and viewer.username, lines)


def test_a_tucked_card_stays_face_down_in_the_log_of_the_others(started):
    """Events stored with a decision keep the secret; the log filters it through the engine's events_for."""
    match = Match.objects.get(pk=started.pk)
    MatchDecision.objects.create(match=match, number=1, seat=0, kind="tuck", args=[5, 0], events=[
        {"e": "tucked", "p": 0, "space": 0, "dragon": 7, "source": "hand", "card": ["dragon", 5]}])
    cards = present.board_cards(match.catalogue_id)
    who = present.Names(["alice", "bob"], dragon=lambda i: cards["dragons"][i]["name"])
    decisions = list(match.decisions.all())
    mine = [line["text"] for g in present.story(match, decisions, 0, who) for line in g["lines"] if line["decision"]]
    theirs = [line["text"] for g in present.story(match, decisions, 1, who) for line in g["lines"]
              if line["decision"]]
    assert mine == [f"alice tucked {cards['dragons'][5]['name']} under {cards['dragons'][7]['name']} "
                    f"(the Crimson Cavern, column 1)."]
    assert theirs == [f"alice tucked a card under {cards['dragons'][7]['name']} (the Crimson Cavern, column 1)."]


def test_no_view_reveals_the_seed_that_decides_every_shuffle(api_as, started, alice, bob):
    started.refresh_from_db()
    for user in (alice, bob, None):
        for url in (f"/api/matches/{started.public_id}/", f"/api/matches/{started.public_id}/options/", "/api/matches/"):
            text = api_as(user).get(url).content.decode()
            assert '"seed"' not in text and str(started.seed) not in text
