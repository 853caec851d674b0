"""Secrets pass one gate: over many random seeded games, for every seat and for a spectator, neither the view nor
the filtered events reveal another player's hand, the order of a deck, a face-down tucked card, the generator's
state or the seed; and states that differ only in what a viewer cannot see look the same to that viewer."""
import json
import random

from game.engine.agents import RandomAgent
from game.engine.determinize import determinize
from game.engine.state import GameState
from game.engine.view import events_for, view_for
from game.language.events import SECRET

from .helpers import real_catalogue

SEED0 = 7_340_000_000_017  # large, so no count or index in a view can equal a seed by chance
GAMES = [(2, False), (3, True), (4, False), (2, True), (5, False), (3, False), (2, False), (4, True)]
FORBIDDEN_KEYS = {"seed", "rng", "stack", "frames", "dragon_deck", "cave_deck", "log"}


def _ints_and_keys(value, ints, keys):
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(k)
            _ints_and_keys(v, ints, keys)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _ints_and_keys(v, ints, keys)
    elif isinstance(value, int) and not isinstance(value, bool):
        ints.add(value)


def cards_named(event):
    """Every card an event names, as ("dragon" | "cave", index)."""
    out = set()

    def refs(value):
        if isinstance(value, list):
            if len(value) in (2, 3) and value[0] in ("dragon", "cave") and isinstance(value[-1], int):
                out.add((value[0], value[-1]))
            else:
                for v in value:
                    refs(v)

    for key, value in event.items():
        if key in ("dragon", "old") and isinstance(value, int):
            out.add(("dragon", value))
        elif key == "dragons" and event["e"] == "swapped":
            out.update(("dragon", d) for d in value)
        elif key in ("cave_card",) or (key in ("card", "old") and event["e"] in ("excavated", "swapped_cave")):
            if isinstance(value, int):
                out.add(("cave", value))
        else:
            refs(value)
    return out


def public_cards(view):
    """Cards a view shows face up: the display, the mats, the discard piles, the revealed cards."""
    out = {("dragon", d) for d in view["display"]["dragons"] + view["discards"]["dragons"] + view["revealed"]}
    out |= {("cave", c) for c in view["display"]["caves"] + view["discards"]["caves"]}
    for pl in view["players"]:
        for space in pl["mat"]:
            out.add(("dragon", space["dragon"]))
            out.add(("cave", space["cave_card"]))
    return out


def hidden_from(st, viewer):
    """Cards the viewer cannot see now: other players' hands, the decks, cards tucked under others' dragons."""
    out = {("dragon", d) for d in st.dragon_deck} | {("cave", c) for c in st.cave_deck}
    for pl in st.players:
        if pl.seat != viewer:
            out |= {("dragon", d) for d in pl.hand} | {("cave", c) for c in pl.caves}
            out |= {("dragon", d) for s in pl.spaces for d in s.tucked}
    return out


def check_view(st, viewer, view):
    ints, keys = set(), set()
    _ints_and_keys(view, ints, keys)
    assert not keys & FORBIDDEN_KEYS, keys & FORBIDDEN_KEYS
    assert st.options["seed"] not in ints and st.rng.state not in ints
    for pl in view["players"]:
        if pl["seat"] != viewer:
            assert pl["hand"] is None and pl["cave_cards"] is None
        assert all(isinstance(space["tucked"], int) for space in pl["mat"])
    if st.pending is not None and st.pending.player != viewer:
        assert "options" not in view["pending"]


def check_events(st, viewer, shown, before):
    ints, keys = set(), set()
    _ints_and_keys(shown, ints, keys)
    assert not keys & FORBIDDEN_KEYS
    assert st.options["seed"] not in ints and st.rng.state not in ints
    revealed = set().union(*(cards_named(e) for e in shown if e["e"] == "revealed")) if shown else set()
    hidden = hidden_from(st, viewer)
    for event in shown:
        secret = SECRET.get(event["e"], ())
        if event.get("p") != viewer or viewer is None:
            assert not set(secret) & set(event), event
        for card in cards_named(event):
            if card in hidden and event.get("p", -1) != viewer:
                # a card now hidden may be named only if the viewer saw it face up before (the display, a mat,
                # a discard pile) or it was revealed to everyone during this decision
                assert card in before or card in revealed, (viewer, event)


def test_no_view_or_event_reveals_a_secret():
    cat = real_catalogue()
    steps = 0
    for k, (players, academy) in enumerate(GAMES):
        st = GameState.new(cat, players=players, seed=SEED0 + k, academy=academy)
        viewers = list(range(players)) + [None]
        events = list(st.events)
        before = {v: set() for v in viewers}
        agent = RandomAgent(k)
        while True:
            for v in viewers:
                view = view_for(st, v)
                check_view(st, v, view)
                check_events(st, v, events_for(events, v), before[v])
                before[v] = public_cards(view)
            if st.pending is None:
                break
            events = st.apply(agent.choose(st.pending.options))
            steps += 1
    assert steps > 1000


def _twin(cat, st, viewer, rng):
    """A copy of `st` that differs only in what `viewer` cannot see: other hands and face-down tucked cards swapped
    with cards of the decks, the decks shuffled, another state of the generator."""
    data = json.loads(json.dumps(st.to_json()))
    for seat, pl in enumerate(data["players"]):
        if seat == viewer:
            continue
        for hand, deck in (("hand", "dragon_deck"), ("caves", "cave_deck")):
            if pl[hand] and data[deck]:
                i = rng.randrange(len(pl[hand]))
                pl[hand][i], data[deck][0] = data[deck][0], pl[hand][i]
        for space in pl["spaces"]:
            if space[4] and len(data["dragon_deck"]) > 1:
                space[4][0], data["dragon_deck"][1] = data["dragon_deck"][1], space[4][0]
    rng.shuffle(data["dragon_deck"])
    rng.shuffle(data["cave_deck"])
    data["rng"] = rng.getrandbits(64)
    return GameState.from_json(cat, data)


def test_states_differing_only_in_hidden_things_look_the_same_to_the_viewer():
    cat = real_catalogue()
    rng = random.Random(4)
    compared_views = compared_events = 0
    for k, (players, academy) in enumerate(GAMES[:6]):
        st = GameState.new(cat, players=players, seed=SEED0 + 100 + k, academy=academy)
        agent = RandomAgent(100 + k)
        n = 0
        while st.pending is not None:
            option = agent.choose(st.pending.options)
            n += 1
            if n % 5 == 0:
                viewer = rng.choice(list(range(players)) + [None])
                twin = _twin(cat, st, viewer, rng)
                assert view_for(twin, viewer) == view_for(st, viewer)
                compared_views += 1
                # the same decision taken in both: what the viewer learns of it is the same, unless the decision
                # turned a card face up (then the views after differ too, and the events may name it)
                mover = st.pending.player
                if viewer != mover:
                    # a twin whose mover is asked again from the hand dealt to them (the engine's own door)
                    twin = determinize(st, viewer, rng.getrandbits(32))
                    if twin.pending is not None and option in twin.pending.options:
                        ours = json.loads(json.dumps(st.to_json()))
                        mine = GameState.from_json(cat, ours)
                        a = mine.apply(option)
                        b = twin.apply(option)
                        if view_for(mine, viewer) == view_for(twin, viewer):
                            assert events_for(a, viewer) == events_for(b, viewer)
                            compared_events += 1
            st.apply(option)
    assert compared_views > 150 and compared_events > 80
