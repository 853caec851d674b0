"""The exchange at any point in the game (core rules, Resource Exchange): beside the resource limit's discard, beside
a payment that offers a choice, beside an opponent's offer on another player's turn, and by the state's door for any
seat (the analysis board)."""
import pytest

from game.engine.bots import GreedyBot, RandomBot
from game.engine.decisions import IllegalDecision, Option
from game.engine.state import GameState

from .helpers import cave, choose, dragon, make_catalogue, position, seat

GIFT_CAVE = cave(1, [{"kind": "when_played", "effect": {"do": "gain", "item": "milk"},
                      "others": {"do": "gain", "item": "meat"}}])
CAT = make_catalogue([dragon(1, "Plain")], [GIFT_CAVE])


def game(*seats):
    seats = list(seats) + [{}] * (3 - len(seats))
    return position(CAT, [seat(CAT, **dict({"coins": 5}, **s)) for s in seats])


def exchanges(st):
    return {o.args for o in st.legal_options() if o.kind == "exchange"}


def test_over_the_resource_limit_an_exchange_may_replace_the_forced_discard():
    st = game({"res": [10, 0, 0, 0]})  # ten meat: one too many, and only meat to discard
    pl = st.players[0]
    choose(st, "pass")
    assert st.pending.kind == "discard_resources" and st.pending.player == 0  # asked, though one discard is forced
    assert st.pending.answers == (Option("discard", ("meat",)),)
    assert ("meat", "meat", "gold") in exchanges(st)
    st.events = []
    events = st.apply(Option("exchange", ("meat", "meat", "gold")))
    assert pl.res == [8, 1, 0, 0]  # nine kept: nothing more to discard, and the turn passes on
    assert st.current == 1 and st.pending.kind == "main_action"
    assert {"e": "exchanged", "p": 0, "gave": ["meat", "meat"], "got": "gold", "n": 1} in events


def test_at_the_limit_the_player_may_still_discard_instead():
    st = game({"res": [10, 0, 0, 0]})
    choose(st, "pass")
    choose(st, "discard", "meat")
    assert st.players[0].res == [9, 0, 0, 0] and st.current == 1


def test_an_exchange_that_leaves_too_many_asks_the_limit_again():
    st = game({"res": [6, 5, 0, 0]})  # two too many
    choose(st, "pass")
    choose(st, "exchange", "meat", "gold", "milk")  # 10 left: still one too many
    assert st.pending.kind == "discard_resources" and st.pending.data["extra"] == 1
    assert st.players[0].res == [5, 4, 0, 1]


def test_an_opponents_offer_waits_while_the_player_exchanges_on_another_players_turn():
    st = game({}, {"res": [2, 0, 0, 0]}, {"caves": [0]})
    choose(st, "pass")
    choose(st, "pass")
    choose(st, "excavate", 0, 0)
    choose(st, "yes")
    assert st.pending.player == 0 and exchanges(st) == set()  # nothing to exchange: yes or no only
    choose(st, "yes")
    assert st.pending.kind == "opponent_offer" and st.pending.player == 1 and st.current == 2
    assert st.pending.answers == (Option("yes"), Option("no"))
    choose(st, "exchange", "meat", "meat", "crystal")
    assert st.pending.kind == "opponent_offer" and st.pending.player == 1  # the same offer, asked again
    assert st.pending.answers == (Option("yes"), Option("no")) and exchanges(st) == set()
    choose(st, "yes")
    assert st.players[1].res == [1, 0, 1, 0]


def test_a_question_with_one_answer_is_still_taken_at_once():
    # a payment with a single way to pay does not stop the game just to offer an exchange
    st = game({"res": [4, 0, 0, 0]})
    assert st.pending.kind == "main_action"
    choose(st, "pass")  # four meat, under the limit: the turn simply ends
    assert st.current == 1


def test_an_exchange_the_player_cannot_make_is_refused_and_changes_nothing():
    st = game({"res": [10, 0, 0, 0]})
    choose(st, "pass")
    before = st.to_json()
    with pytest.raises(IllegalDecision):
        st.apply(Option("exchange", ("gold", "gold", "meat")))
    assert st.to_json() == before


def test_a_saved_game_keeps_the_exchanges_offered_beside_a_question():
    st = game({"res": [10, 0, 0, 0]})
    choose(st, "pass")
    loaded = GameState.from_json(CAT, st.to_json())
    assert loaded.legal_options() == st.legal_options()
    choose(loaded, "exchange", "meat", "meat", "milk")
    assert loaded.current == 1


def test_any_seat_may_exchange_through_the_door_whoever_is_asked():
    st = game({}, {"res": [0, 3, 0, 0]})
    assert st.pending.player == 0
    st.exchange_resources(1, ("gold", "gold", "milk"))
    assert st.players[1].res == [0, 1, 0, 1] and st.pending.player == 0 and st.pending.kind == "main_action"
    with pytest.raises(IllegalDecision):
        st.exchange_resources(1, ("gold", "gold", "meat"))  # one gold left
    assert st.players[1].res == [0, 1, 0, 1]


def test_bots_answer_the_question_itself_never_the_exchanges_beside_it():
    # bots and playouts choose among a question's own answers (`pending.answers`), so offering exchanges beside a
    # question changes none of their games
    st = game({"res": [10, 0, 0, 0]})
    choose(st, "pass")
    assert len(st.legal_options()) > 1
    assert RandomBot(3).choose(st, 0) == Option("discard", ("meat",))
    assert GreedyBot(3).choose(st, 0) == Option("discard", ("meat",))
