"""Build an exact position from real cards by printed number, and drive its questions by hand."""
from game.engine.decisions import Option
from game.engine.model import COLUMNS
from game.engine.position import build_position, export_position, load_position
from game.language.vocabulary import CAVES, RESOURCES
from tests.engine import invariants
from tests.engine.helpers import real_catalogue

from .situation import dragon_index

CAT = real_catalogue()


def build(players=2, academy=True, mats=None, hands=None, more=None, **partial):
    """A game at seat 0's main action with empty mats but for each seat's mat set from {space: number or dict} and
    hands from {seat: [numbers]}. A dict space may say {"n": number, "eggs": 1, "cached": [..], "tucked": k,
    "tokens": t, "printing": "updated"}. Spaces right of column 1 are excavated with cave cards dealt at random.
    Every seat has 3 of each resource, 5 coins, no eggs in the nests and no cave cards, unless `more` ({seat: fields
    of a partial position's player}) says otherwise; `partial` goes to `build_position` as it is."""
    updated = academy
    seats = []
    for seat in range(players):
        mat = {cave: [None] * COLUMNS for cave in CAVES}
        for index, spec in sorted((mats or {}).get(seat, {}).items()):
            spec = spec if isinstance(spec, dict) else {"n": spec}
            if "printing" in spec:
                updated = spec["printing"] == "updated"
            space = {"dragon": spec["n"], "eggs": spec.get("eggs", 0), "tucked": spec.get("tucked", 0),
                     "training": spec.get("tokens", 0),
                     "cached": dict(zip(RESOURCES, spec.get("cached", [0, 0, 0, 0])))}
            mat[CAVES[index // COLUMNS]][index % COLUMNS] = space
        seats.append(dict({"mat": mat, "hand": list((hands or {}).get(seat, [])), "cave_cards": 0, "coins": 5,
                           "nest_eggs": 0, "resources": {r: 3 for r in RESOURCES}}, **(more or {}).get(seat, {})))
    return build_position(CAT, players=seats, academy=academy, updated=updated, **dict({"seed": 5}, **partial))


def to_move(st, seat, **fields):
    """The same table loaded again at `seat`'s main action, with these fields of their player (as a position names
    them: coins, explored, played_this_turn, ...) changed."""
    table = export_position(st)
    table["players"][seat].update(fields)
    table["current_player"] = seat
    table["engine"] = {"rng": table["engine"]["rng"]}  # no ability running: the player to move chooses an action
    return load_position(st.cat, table)


def fire(st, seat, effect, others=None, src=-1, cave=-1, source="test", kind="when_played"):
    """Queue an ability for `seat` (asked yes/no like a card's) and run to its first question."""
    st.fire_ability(seat, {"effect": effect, "others": others, "kind": kind}, src=src, cave=cave, source=source)


def fire_card(st, seat, number, kind, printing="original"):
    d = dragon_index(number, printing)
    ability = next(a for a in CAT.dragons[d].abilities if a["kind"] == kind)
    fire(st, seat, ability["effect"], ability.get("others"), src=d, kind=kind)


def answer(st, kind, *args):
    """Take the pending option of this kind (and these leading args); fail if there is none."""
    for option in st.legal_options():
        if option.kind == kind and tuple(option.args[:len(args)]) == args:
            st.apply(option)
            invariants.check(st, {"roundtrip": True})
            return option
    raise AssertionError(f"no option {kind}{args} in {st.legal_options()} ({st.pending and st.pending.prompt})")


def about(st):
    """What the pending question is about: the name of the card whose ability it offers, else the benefit's source."""
    data = st.pending.data
    card = data.get("card")
    return card["name"] if card else data.get("source")


def asks_to_use(st, name):
    """Whether the pending question offers the ability of the card named `name` (its owner's yes or no)."""
    return st.pending is not None and st.pending.kind == "use_ability" and about(st) == name


def waiting(st):
    """True while the ability still asks something (the game is not back at a main action)."""
    return st.pending is not None and st.pending.kind != "main_action"


def space_of(st, seat, number):
    return st.players[seat].find(dragon_index(number))


def yes_to_all(st, seat=None):
    while waiting(st) and Option("yes") in st.legal_options() and (seat is None or st.pending.player == seat):
        st.apply(Option("yes"))
