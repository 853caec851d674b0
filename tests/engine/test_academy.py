"""Dragon Academy as a game option: income spaces when passing, printings, fledglings."""
import pytest

from game.engine.decisions import IllegalDecision, Option
from game.engine.state import GameState

from .helpers import answer_all, dragon, fire, make_catalogue, position, real_catalogue, seat

FLEDGLING = dragon(1, "Trainee", size="fledgling", vp=0, training=["milk"], expansion="academy")


CAT = make_catalogue([FLEDGLING])


def coinless(**partial):
    """A Dragon Academy game of three players without a coin or anything else, seat 0 to move."""
    return position(CAT, [seat(CAT, coins=0) for _ in range(3)], academy=True, **partial)


@pytest.fixture
def st():
    return coinless()


def test_passing_in_rounds_1_to_3_takes_a_free_income_space(st):
    assert st.legal_options() == [Option("pass", (i,)) for i in range(5)]
    st.apply(Option("pass", (2,)))
    assert Option("pass", (2,)) not in st.legal_options()  # one player per space per round
    with pytest.raises(IllegalDecision, match="player 1 already took that income space"):
        st.apply(Option("pass", (2,)))
    with pytest.raises(IllegalDecision, match="free income space"):
        st.apply(Option("pass"))


def test_income_is_collected_after_the_round_end_steps(st):
    st.apply(Option("pass", (0,)))  # 6 coins (known)
    st.apply(Option("pass", (1,)))  # placeholder: a guild advancement and a dragon card from the display
    st.apply(Option("pass", (4,)))  # placeholder: a cave card from the display
    assert st.round == 2 and st.start == 1
    # income in turn order from the new start player: seat 1 advances (track space 1 lays an egg), then drafts
    assert st.pending.player == 1 and st.legal_options() == [Option("take", ("display", i)) for i in range(3)]
    drafted = st.display_dragons[0]
    st.apply(Option("take", ("display", 0)))
    assert st.display_dragons[0] is not None and st.display_dragons[0] != drafted  # refilled at once
    assert st.pending.player == 2
    st.apply(Option("take", ("display", 0)))
    assert [(p.coins, p.guild, len(p.hand), len(p.caves)) for p in st.players] == [(6, 0, 0, 0), (0, 1, 1, 0),
                                                                                    (0, 0, 0, 1)]
    assert [p.nest for p in st.players] == [0, 1, 0]  # only the guild track's egg: none with the updated tracker
    assert all(p.income_space is None for p in st.players) and st.income_taken == {}


def test_no_placeholder_income_space_is_worth_6_coins():
    for spaces in real_catalogue().academy_income.values():
        assert spaces[0] == {"do": "gain", "item": "coin", "count": 6}
        assert all(space["do"] == "seq" and all(step["item"] in ("guild", "dragon", "cave") for step in space["steps"])
                   for space in spaces if space.get("item") != "coin")


def test_after_round_4_no_income_space_is_chosen():
    st = position(CAT, [seat(CAT, coins=1), seat(CAT, coins=0), seat(CAT, coins=0)], academy=True, round=4)
    assert [o for o in st.legal_options() if o.kind == "pass"] == [Option("pass")]


def test_academy_option_swaps_in_updated_printings():
    cat = real_catalogue()
    base = GameState.new(cat, players=2, seed=3)
    academy = GameState.new(cat, players=2, seed=3, academy=True)
    def numbers(st):
        cards = st.dragon_deck + [d for p in st.players for d in p.hand] + st.dragon_discard
        return sorted((cat.dragons[d].number, cat.dragons[d].printing)
                      for d in cards + [d for d in st.display_dragons if d is not None])
    assert (119, "original") in numbers(base) and (119, "updated") not in numbers(base)
    assert (119, "updated") in numbers(academy) and (119, "original") not in numbers(academy)
    assert len(numbers(base)) == 183 and len(numbers(academy)) == 263


def test_printing_choice_is_its_own_option():
    cat = real_catalogue()
    st = GameState.new(cat, players=2, seed=3, academy=True, updated=False)
    every = st.dragon_deck + [d for p in st.players for d in p.hand] + st.dragon_discard + st.display_dragons
    assert all(cat.dragons[d].printing == "original" for d in every if d is not None)


def test_fledgling_abilities_wait_until_fully_trained():
    trained_scorer = dragon(1, "Scorer", size="fledgling", vp=0, training=["milk"], expansion="academy",
                            abilities=[{"kind": "end_game", "effect": {"do": "score", "vp": 5}}])
    cat = make_catalogue([trained_scorer, dict(trained_scorer, number=2)])  # one copy each: the same card twice
    st = position(cat, [seat(cat, mat={0: 0}), seat(cat, mat={0: {"dragon": 1, "training": 1}})], academy=True,
                  round=4)
    while st.pending is not None:
        st.apply(st.legal_options()[0])
    scores = st.result["scores"]
    assert scores[0]["abilities"] == 0 and scores[1]["abilities"] == 5
    assert scores[0]["dragons"] == 1 and scores[1]["dragons"] == 1


def test_a_guild_gain_counted_as_zero_moves_no_one_on_the_guild():
    """Ancient Kasei Wyvern's kind of ability: a guild step per trained fledgling, with none trained, is no step (a
    count of 0 used to move the player one space, through the public door that runs the stack mid-ability)."""
    cat = real_catalogue()
    st = position(cat, 2, academy=True)
    before = st.players[0].guild
    fire(st, {"do": "gain", "item": "guild", "count": {"what": "dragons", "size": "fledgling", "trained": True}})
    answer_all(st)
    assert st.players[0].guild == before
    fire(st, {"do": "gain", "item": "guild", "count": 2})
    answer_all(st)
    assert st.players[0].guild == before + 2


def test_a_paid_training_box_is_told_after_its_payment():
    """The story of a paid box reads as it happens at the table: the milk is paid, then the box is covered; a free
    training has nothing to pay and is told at once."""
    cat = make_catalogue([dragon(1, "Trainee", size="fledgling", vp=0, training=["milk", "meat"],
                                 expansion="academy")])
    st = position(cat, [seat(cat, res=(0, 0, 0, 2), mat={0: 0}), seat(cat)], academy=True)
    st.events = []
    fire(st, {"do": "train"})
    answer_all(st)
    told = [(e["e"], e.get("item"), e.get("tokens")) for e in st.events if e["e"] in ("paid", "trained")]
    assert told == [("paid", "milk", None), ("trained", None, 1)]
    assert st.players[0].spaces[0].tokens == 1 and st.players[0].res[3] == 1

    st.events = []
    fire(st, {"do": "train", "free": True})
    answer_all(st)
    assert [(e["e"], e.get("tokens")) for e in st.events if e["e"] in ("paid", "trained")] == [("trained", 2)]
