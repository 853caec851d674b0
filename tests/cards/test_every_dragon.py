"""Every dragon of the catalogue (263 numbers, 268 printings), every ability: run it on a busy mat and check it did
what its words say — changed what they act on, nothing they cannot touch, and gave opponents their share."""
import pytest

from game.engine.position import export_position, load_position
from game.language.vocabulary import RESOURCES
from tests.engine.helpers import real_catalogue

from .expect import ANY, channels, fixed_gains, fixed_here, oracle_score
from .situation import changed, dragon_index, run_ability, situation

CAT = real_catalogue()
PRINTED = ("when_played", "if_activated", "once_per_round", "end_game")

# Abilities that rightly do nothing on the test mat, and why. Each is checked to do nothing, so the reason stays true,
# and scores as counted by hand on a mat where its condition holds (test_rules_cards_lean_on.py, CONDITIONAL_SCORES).
IDLE = {
    (81, "end_game"): "a dragon sits to its right",
    (129, "end_game"): "no playful dragon is orthogonally adjacent to it",
    (91, "end_game"): "its cave holds no hatchling",
    (59, "end_game"): "no other shy dragon is in its cave",
    (235, "end_game"): "the mat holds one hatchling, not two",
    (54, "end_game"): "an aggressive dragon is in its cave",
    (150, "end_game"): "no other helpful dragon is in its column",
}


def rows():
    for card in CAT.dragons:
        for i, ability in enumerate(card.abilities):
            if ability["kind"] in PRINTED:
                yield pytest.param(card.index, i, id=f"{card.number}{'u' if card.printing == 'updated' else ''}-"
                                                     f"{ability['kind']}-{card.name.replace(' ', '_')}")


def place(card, trained=False):
    """Original printings of updated cards are only in a base game's decks."""
    return situation(card.index, academy=not (card.printing == "original" and card.number in (119, 124, 131, 132,
                                                                                               134)),
                     trained=trained)


@pytest.mark.parametrize("index,which", list(rows()))
def test_ability_does_what_its_words_say(index, which):
    card = CAT.dragons[index]
    ability = card.abilities[which]
    st, space = place(card, trained=True)  # a fledgling fully trained: its ability is active
    expected_vp = oracle_score(CAT, st.players[0], index, ability["effect"])
    here = st.players[0].spaces[space]
    start = (here.eggs, list(here.cached), len(here.tucked))
    before, after = run_ability(st, 0, ability, src=index)
    if expected_vp is not None:  # simple counters: the exact VP, counted apart from the interpreter
        assert after[0]["end_vp"] - before[0]["end_vp"] == expected_vp, card.label()
    mine = changed(before[0], after[0])
    may, acts = channels(ability["effect"])
    key = (card.number, ability["kind"])
    if key in IDLE:
        assert not mine, f"{card.label()} was expected to do nothing here ({IDLE[key]})"
        return
    if ANY not in may:
        assert mine <= may, f"{card.label()} changed {sorted(mine - may)}, which its words never touch"
    if ANY in acts:
        assert mine, f"{card.label()} changed nothing"
    else:
        assert mine & acts, f"{card.label()} changed {sorted(mine)} but its words act on {sorted(acts)}"
    simple = fixed_here(ability["effect"])
    if simple is not None:  # one word on this dragon: exactly that many, eggs up to its nests
        what, item, n = simple
        if what == "eggs":
            assert here.eggs == start[0] + min(n, card.capacity - start[0]), card.label()
        elif what == "cached":
            i = ("meat", "gold", "crystal", "milk").index(item)
            assert here.cached[i] == start[1][i] + n, card.label()
        else:
            assert len(here.tucked) == start[2] + n, card.label()
    exact = fixed_gains(ability["effect"])
    if exact is not None:  # plain gains: the exact amounts
        res = [after[0]["res"][i] - before[0]["res"][i] for i in range(4)]
        assert res == [exact.get(r, 0) for r in ("meat", "gold", "crystal", "milk")], card.label()
        assert after[0]["coins"] - before[0]["coins"] == exact.get("coin", 0), card.label()
    if ability.get("others"):
        theirs = [changed(before[p], after[p]) for p in range(1, len(st.players))]
        assert any(theirs), f"no opponent took {card.label()}'s share"


def hatchlings():
    return [pytest.param(c.index, id=f"{c.number}-{c.name.replace(' ', '_')}") for c in CAT.dragons
            if c.size == "hatchling"]


def feed_once(st, card, index):
    """Feed a hatchling its food by an outside ability (not its own if-activated one)."""
    if card.feeds_on == "card":
        effect = {"do": "tuck", "from": "deck", "on": {"scope": "here"}}
    else:
        effect = {"do": "cache", "item": card.feeds_on, "from": "general", "on": {"scope": "here"}}
    return run_ability(st, 0, {"kind": "when_played", "effect": effect}, src=index, source="a test ability")


@pytest.mark.parametrize("index", hatchlings())
def test_hatchling_feeds_every_time_and_grows_up_exactly_once(index):
    card = CAT.dragons[index]
    st, space = place(card)
    feed = [a["effect"] for a in card.abilities if a["kind"] == "on_feed"]
    _, feed_acts = channels(feed[0]) if feed else (set(), set())
    _, grow_acts = channels(next(a for a in card.abilities if a["kind"] == "on_grow_up")["effect"])
    grown = []
    for time in range(4):
        st = untrained(st)  # room to train again for hatchlings whose feeding trains
        before, after = feed_once(st, card, index)
        s = st.players[0].spaces[space]
        grown.append(s.grown)
        assert s.fed == time + 1
        mine = changed(before[0], after[0]) - {"cached", "tucked"}
        acts = feed_acts | (grow_acts if time == 2 else set())
        if acts:
            assert mine & acts or ANY in acts and mine, f"feeding {card.label()} gave nothing (time {time + 1})"
        else:
            assert not mine, f"feeding {card.label()} gave {sorted(mine)} though it has no feeding ability"
    assert grown == [False, False, True, True]


def untrained(st):
    """The same table with no training token on seat 0's fledglings (a position edited and loaded again)."""
    table = export_position(st)
    for spaces in table["players"][0]["mat"].values():
        for space in spaces:
            if space:
                space.pop("training", None)
    return load_position(CAT, table)


def test_every_hatchling_has_a_food_and_a_grow_up_ability():
    for card in CAT.dragons:
        if card.size == "hatchling":
            assert "on_grow_up" in card.kinds and card.feeds_on in ("milk", "meat", "card"), card.label()


def fledglings():
    return [pytest.param(c.number, id=f"{c.number}-{c.name.replace(' ', '_')}") for c in CAT.dragons
            if c.size == "fledgling"]


def _explore_crimson(st):
    """Seat 0 to move again, with 3 coins, no cave explored this round and no dragon just played (the table as it
    is, loaded again), explores the Crimson Cavern; say yes to everything and take first options. Returns the game
    and the questions seen (kind and data)."""
    from game.engine.decisions import Option

    from .board import to_move, waiting

    st = to_move(st, 0, explored={}, played_this_turn=[], coins=3)
    st.apply(Option("explore", (0,)))
    asked = []
    while waiting(st):
        asked.append((st.pending.kind, st.pending.data))
        options = st.legal_options()
        st.apply(Option("yes") if Option("yes") in options else next(o for o in options if o.kind != "stop"))
    return st, asked


def _offers_of(asked, card):
    """The abilities of `card` offered to its owner among the questions seen: "training" or the ability kind."""
    return [data["ability"] or data["effect"]["do"] for kind, data in asked
            if kind == "use_ability" and data["card"] and data["card"]["index"] == card.index]


@pytest.mark.parametrize("number", fledglings())
def test_fledgling_trains_box_by_box_and_its_ability_waits_until_fully_trained(number):
    from .board import build

    card = CAT.dragons[dragon_index(number)]
    other = 207 if number != 207 else 206  # an untrained fledgling elsewhere, for abilities that train one
    # what training may cost: eggs, three cave cards, three dragon cards (dealt at random) and 4 of each resource
    st = build(mats={0: {0: number, 4: other}},
               more={0: {"nest_eggs": 2, "cave_cards": 3, "hand": 3, "resources": {r: 4 for r in RESOURCES}}})
    boxes = len(card.training)
    for trained in range(1, boxes + 1):
        st, asked = _explore_crimson(st)
        assert st.players[0].spaces[0].tokens == trained, f"walk {trained}: {asked}"
        mine = _offers_of(asked, card)
        assert mine == ["train"], f"only training is offered before it is trained: {mine}"
    assert st.active(0, card.index)
    st, asked = _explore_crimson(st)
    mine = _offers_of(asked, card)
    if "if_activated" in card.kinds:
        assert mine == ["if_activated"], f"trained, its ability works: {mine}"
    else:
        assert mine == [], f"a trained {sorted(card.kinds)} fledgling does nothing on a walk: {mine}"
