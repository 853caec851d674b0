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
            body = api_as(viewer).get(f"/api/matches/{match.pk}/").json()
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
    body = api_as(alice).get(f"/api/matches/{started.pk}/").json()
    mine = body["view"]["players"][0]
    assert len(mine["hand"]) == 3 and len(mine["cave_cards"]) == 3
    for index in mine["hand"]:
        card = body["cards"]["dragons"][str(index)]
        assert card["name"] and card["url"].startswith("/cards/dragons/")


def test_a_card_tucked_from_a_hand_is_named_only_to_its_owner(started):
    decision = MatchDecision(match=started, number=9, seat=0, kind="tuck", args=[5, 0], prompt="Choose a card to tuck",
                             label="Tuck Some Dragon (12) under Crimson Cavern space 1")
    names = {0: "alice", 1: "bob"}
    assert present.log_entry(decision, 0, names)["label"] == decision.label
    assert "Some Dragon" not in present.log_entry(decision, 1, names)["label"]
    from_deck = MatchDecision(match=started, number=9, seat=0, kind="tuck", args=[-1, 0], prompt="",
                              label="Tuck the top card of the deck under Crimson Cavern space 1")
    assert present.log_entry(from_deck, 1, names)["label"] == from_deck.label


def test_no_view_reveals_the_seed_that_decides_every_shuffle(api_as, started, alice, bob):
    started.refresh_from_db()
    for user in (alice, bob, None):
        for url in (f"/api/matches/{started.pk}/", f"/api/matches/{started.pk}/options/", "/api/matches/"):
            text = api_as(user).get(url).content.decode()
            assert '"seed"' not in text and str(started.seed) not in text
