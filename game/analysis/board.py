"""A position on the analysis board: a set-up game plus edits, read from JSON into a real `GameState`.

A position is `{"setup": {...}, "edits": [...], "seat": n}` (docs/analysis.md): the setup deals a random game
(seeded) and plays its setup choices (each player keeps the first cards and resources offered), then each edit
changes one thing, as a click on the drawn table does. Or it is a whole position in the engine's format
(docs/positions.md, `"format": "wyrmdex-position"`), as every answer returns it, with edits and seat beside it if
wanted. Every mistake is an `AnalysisInputError` naming the JSON path to blame.

A whole position inside an ability carries the engine's interpreter stack under a seal keyed with the site's secret
(`seal_key`): only positions this site answered with can bring one back.
"""
from django.utils.crypto import salted_hmac

from game.engine.decisions import MalformedDecision
from game.engine.model import COLUMNS
from game.engine.position import FORMAT as POSITION_FORMAT, PositionError, build_position, load_position
from game.engine.state import GameState
from game.language.vocabulary import CAVE_INDEX, CAVES, RESOURCES

from .errors import AnalysisInputError

MAIN_ACTION = "main_action"  # the kind of the turn's question (game/language/questions.py)
MAX_COUNT = 20
MAX_EDITS = 200
DECK = "deck"  # in a list of cave cards (a hand, the display): one card from the deck, whichever is on top
SETUP_KEYS = {"players", "seed", "academy", "automa", "empty"}
# An empty table: nothing in front of anyone; the decks, the display, the guild tile and the objectives as dealt.
# Built with a coin each, taken back after: loading a table where passing is everyone's lone option would let the
# engine take it unasked, and the round would be over before anyone looked at it.
EMPTY_PLAYER = {"hand": [], "cave_cards": [], "coins": 1, "nest_eggs": 0}
POSITION_KEYS = {"setup", "edits", "seat"}
SEAL_SALT = "wyrmdex.analysis.position-seal"


def seal_key():
    """The key of the seal on a position's interpreter stack (game/engine/position.py): derived from SECRET_KEY, so
    every app server of the site accepts the others' positions and nobody else can seal a forged stack."""
    return salted_hmac(SEAL_SALT, "engine.seal").digest()


def whole(value, field, low=0, high=MAX_COUNT):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AnalysisInputError(field, f"expected a whole number from {low} to {high}")
    return value


def cave_index(value, field):
    if isinstance(value, str) and value.lower() in CAVE_INDEX:
        return CAVE_INDEX[value.lower()]
    short = {name.split("_")[0]: i for name, i in CAVE_INDEX.items()}
    if isinstance(value, str) and value.lower() in short:
        return short[value.lower()]
    raise AnalysisInputError(field, f"expected a cave: {', '.join(CAVES)} (or crimson, golden, amethyst)")


def _player(seat):
    return f"Player {seat + 1}"


def _seat(st, value, field):
    return whole(value, field, 0, len(st.players) - 1)


def setup_state(catalogue, setup, field="setup"):
    """A new game dealt from `setup` with every setup choice taken (the first cards and resources offered), or with
    `"empty": true` an empty table in round 1: no cards, coins, eggs or resources in front of anyone."""
    setup = {} if setup is None else setup
    if not isinstance(setup, dict):
        raise AnalysisInputError(field, "expected an object such as {\"players\": 2, \"seed\": 1}")
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown:
        raise AnalysisInputError(f"{field}.{unknown[0]}", f"unknown; a setup has {', '.join(sorted(SETUP_KEYS))}")
    players = whole(setup.get("players", 2), f"{field}.players", 1, 5)
    seed = whole(setup.get("seed", 1), f"{field}.seed", 0, 2**31)
    academy = setup.get("academy", False)
    if not isinstance(academy, bool):
        raise AnalysisInputError(f"{field}.academy", "expected true or false")
    automa = setup.get("automa", {"level": 1} if players == 1 else None)
    empty = setup.get("empty", False)
    if not isinstance(empty, bool):
        raise AnalysisInputError(f"{field}.empty", "expected true or false")
    if empty:
        try:
            st = build_position(catalogue, players=[dict(EMPTY_PLAYER) for _ in range(players)], seed=seed,
                                academy=academy, **({"automa": automa} if automa is not None else {}))
        except PositionError as error:  # only the Automa's settings come from the client here
            raise AnalysisInputError(f"{field}.{error.field}", error.message) from None
        for pl in st.players:
            pl.coins = 0
        to_move(st, st.current)  # with nothing to pay, passing is the lone option: ask it rather than take it
        return st
    try:
        st = GameState.new(catalogue, players=players, seed=seed, academy=academy, automa=automa)
    except MalformedDecision as error:  # the engine's own check ("automa.level: ...") names what is wrong
        name, _, message = str(error).partition(": ")
        if not (name in ("players", "automa") or name.startswith("automa.")):
            name, message = "players", str(error)
        raise AnalysisInputError(f"{field}.{name}", message) from None
    while st.pending is not None and st.pending.kind != MAIN_ACTION:
        st.apply(st.legal_options()[0])
    return st


def read(cards, data):
    """The GameState a position describes, with the pending question of the seat to move."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise AnalysisInputError("position", "expected an object with setup and edits, or state")
    if data.get("format") == POSITION_FORMAT:  # a whole position (docs/positions.md), edits and seat beside it
        whole_position = {key: value for key, value in data.items() if key not in ("edits", "seat")}
        try:
            st = load_position(cards.cat, whole_position, seal_key=seal_key())
        except PositionError as error:  # its field is a path inside the position (the top is called "position")
            field = error.field if error.field.startswith("position") else f"position.{error.field}"
            raise AnalysisInputError(field, error.message) from None
    else:
        unknown = sorted(set(data) - POSITION_KEYS)
        if unknown:
            raise AnalysisInputError(f"position.{unknown[0]}", f"unknown; a position has setup, edits and seat, or "
                                                              f"is a whole position (\"format\": \"{POSITION_FORMAT}\")")
        st = setup_state(cards.cat, data.get("setup"), "position.setup")
    edits = data.get("edits", [])
    if not isinstance(edits, list):
        raise AnalysisInputError("position.edits", "expected a list of edits")
    if len(edits) > MAX_EDITS:
        raise AnalysisInputError("position.edits", f"at most {MAX_EDITS} edits")
    for i, edit in enumerate(edits):
        apply_edit(cards, st, edit, f"position.edits[{i}]")
    if "seat" in data:
        to_move(st, _seat(st, data["seat"], "position.seat"))
    elif edits:
        to_move(st, st.current)
    return st


def to_move(st, seat):
    """Make `seat` the player whose turn it is and ask them for their action again."""
    st.put_to_move(seat)  # even a lone option (only "pass") is asked: play would take it unasked


# -- edits: one click on the table each ----------------------------------------------------------------------

def _space(st, seat, edit, field):
    cave = cave_index(edit.get("cave"), f"{field}.cave")
    column = whole(edit.get("column"), f"{field}.column", 1, COLUMNS)
    return st.players[seat].spaces, cave * COLUMNS + column - 1


def _take_cave_card(st, field):
    """A cave card for a space being excavated by hand: from the deck (the position does not say which)."""
    card = st.draw_cave()
    if card is None:
        raise AnalysisInputError(field, "no cave card is left in the deck to excavate with")
    return card


def _excavate_to(st, seat, index, field):
    spaces = st.players[seat].spaces
    start = index - index % COLUMNS
    for i in range(start + 1, index + 1):
        if spaces[i].cave_card is None:
            spaces[i].cave_card = _take_cave_card(st, field)


def remove_dragon_card(st, dragon):
    """Take a dragon card out of wherever it is (deck, display, discard, hands) so it can be placed."""
    for pile in (st.dragon_deck, st.dragon_discard, st.revealed):
        if dragon in pile:
            pile.remove(dragon)
            return True
    for i, d in enumerate(st.display_dragons):
        if d == dragon:
            st.display_dragons[i] = st.draw_dragon()
            return True
    for pl in st.players:
        if dragon in pl.hand:
            pl.hand.remove(dragon)
            return True
    return False


def remove_cave_card(st, card):
    for pile in (st.cave_deck, st.cave_discard):
        if card in pile:
            pile.remove(card)
            return True
    for i, c in enumerate(st.display_caves):
        if c == card:
            st.display_caves[i] = st.draw_cave()
            return True
    for pl in st.players:
        if card in pl.caves:
            pl.caves.remove(card)
            return True
    return False


def _not_held(st, card, pile, field):
    """A card named for a hand or the display must not be in a player's hand (`pile` is "hand" for dragons, "caves"
    for cave cards): taking it out of that hand without a word would undo an edit made just before, as when one
    form sets a hand and the display together. The player's own hand is given back before a hand edit looks."""
    for pl in st.players:
        if card in getattr(pl, pile):
            what = st.cat.dragons[card].name if pile == "hand" else f"cave card {st.cat.caves[card].number}"
            raise AnalysisInputError(field, f"{what} is in {_player(pl.seat)}'s hand, and a card is in one place "
                                            f"only: take it out of that hand, or leave it out here")


def _dragon_card(cards, st, ref, field):
    index = cards.dragon(ref, field, updated=st.options.get("updated", False))
    if st.players and any(index == s.dragon for pl in st.players for s in pl.spaces):
        raise AnalysisInputError(field, f"{st.cat.dragons[index].name} is already on a mat")
    return index


def _cave_card(cards, st, ref, field):
    if isinstance(ref, bool) or not isinstance(ref, int):
        raise AnalysisInputError(field, "expected a cave card's number")
    updated = st.options.get("updated", False)
    found = [c for c in st.cat.caves if c.number == ref]
    exact = [c for c in found if c.printing == ("updated" if updated else "original")] or found
    if not exact:
        raise AnalysisInputError(field, f"there is no cave card number {ref}")
    return exact[0].index


def _counts(value, field, names=RESOURCES):
    if not isinstance(value, dict):
        raise AnalysisInputError(field, "expected an object such as {\"meat\": 1}")
    out = {}
    for name, count in value.items():
        if name not in names:
            raise AnalysisInputError(f"{field}.{name}", f"not a resource; expected {', '.join(names)}")
        out[name] = whole(count, f"{field}.{name}")
    return out


EDIT_FIELDS = {
    "dragon": {"seat", "cave", "column", "card", "eggs", "cached", "tucked", "tokens", "fed"},
    "space": {"seat", "cave", "column", "eggs", "cached", "tucked", "tokens", "fed"},
    "remove_dragon": {"seat", "cave", "column"},
    "excavate": {"seat", "cave", "column", "cave_card"},
    "nest": {"seat", "eggs"},
    "coins": {"seat", "coins"},
    "resources": {"seat", "resources"},
    "hand": {"seat", "dragons"},
    "cave_cards": {"seat", "caves"},
    "display": {"dragons", "caves"},
    "guild_tile": {"tile"},
    "round": {"round"},
    "explored": {"seat", "cave", "times"},
    "guild": {"seat", "advancements"},
    "marker": {"seat", "row", "square"},
    "remove_marker": {"seat", "row", "square"},
    "objective": {"seat", "round", "place"},
    "objective_tile": {"round", "tile", "side"},
    "passed": {"seat", "passed"},
    "income": {"seat", "space"},
    "turn": {"seat"},
}


def apply_edit(cards, st, edit, field):
    if not isinstance(edit, dict) or not isinstance(edit.get("do"), str):
        raise AnalysisInputError(field, f"expected an edit such as {{\"do\": \"coins\", \"seat\": 0, \"coins\": 3}}; "
                                        f"known: {', '.join(EDIT_FIELDS)}")
    do = edit["do"]
    if do not in EDIT_FIELDS:
        raise AnalysisInputError(f"{field}.do", f"unknown edit {do!r}; known: {', '.join(EDIT_FIELDS)}")
    unknown = sorted(set(edit) - EDIT_FIELDS[do] - {"do"})
    if unknown:
        raise AnalysisInputError(f"{field}.{unknown[0]}", f"not part of a {do} edit "
                                                         f"({', '.join(sorted(EDIT_FIELDS[do]))})")
    seat = _seat(st, edit.get("seat", 0), f"{field}.seat") if "seat" in EDIT_FIELDS[do] else None
    pl = st.players[seat] if seat is not None else None
    if do == "dragon":
        spaces, index = _space(st, seat, edit, field)
        if spaces[index].dragon is not None:
            raise AnalysisInputError(f"{field}.column", "that space already holds a dragon; remove it first")
        dragon = _dragon_card(cards, st, edit.get("card"), f"{field}.card")
        card = st.cat.dragons[dragon]
        remove_dragon_card(st, dragon)
        _excavate_to(st, seat, index, field)
        space = spaces[index]
        space.dragon = dragon
        space.eggs = whole(edit.get("eggs", 0), f"{field}.eggs", 0, card.capacity)
        cached = _counts(edit.get("cached", {}), f"{field}.cached")
        space.cached = [cached.get(r, 0) for r in RESOURCES]
        tucked = whole(edit.get("tucked", 0), f"{field}.tucked")
        for _ in range(tucked):
            under = st.draw_dragon()
            if under is None:
                raise AnalysisInputError(f"{field}.tucked", "the dragon deck ran out")
            space.tucked.append(under)
        space.tokens = whole(edit.get("tokens", 0), f"{field}.tokens", 0, len(card.training))
        space.fed = whole(edit.get("fed", 0), f"{field}.fed", 0, 3 if card.feeds_on else 0)
        space.grown = space.fed >= 3
    elif do == "space":
        spaces, index = _space(st, seat, edit, field)
        space = spaces[index]
        if space.dragon is None:
            raise AnalysisInputError(f"{field}.column", "that space holds no dragon: add one first")
        card = st.cat.dragons[space.dragon]
        if "eggs" in edit:
            space.eggs = whole(edit["eggs"], f"{field}.eggs", 0, card.capacity)
        if "cached" in edit:
            cached = _counts(edit["cached"], f"{field}.cached")
            space.cached = [cached.get(r, space.cached[i]) for i, r in enumerate(RESOURCES)]
        if "tucked" in edit:
            tucked = whole(edit["tucked"], f"{field}.tucked")
            while len(space.tucked) > tucked:
                st.dragon_deck.insert(0, space.tucked.pop())
            while len(space.tucked) < tucked:
                under = st.draw_dragon()
                if under is None:
                    raise AnalysisInputError(f"{field}.tucked", "the dragon deck ran out")
                space.tucked.append(under)
        if "tokens" in edit:
            space.tokens = whole(edit["tokens"], f"{field}.tokens", 0, len(card.training))
        if "fed" in edit:
            space.fed = whole(edit["fed"], f"{field}.fed", 0, 3 if card.feeds_on else 0)
            space.grown = space.fed >= 3
    elif do == "remove_dragon":
        spaces, index = _space(st, seat, edit, field)
        if spaces[index].dragon is None:
            raise AnalysisInputError(f"{field}.column", "that space holds no dragon")
        st.dragon_discard.append(spaces[index].dragon)
        st.dragon_discard.extend(spaces[index].tucked)
        spaces[index].clear_dragon()
    elif do == "excavate":
        spaces, index = _space(st, seat, edit, field)
        if "cave_card" in edit:
            if index % COLUMNS == 0:
                raise AnalysisInputError(f"{field}.cave_card", "the first column is open from the start: no card")
            card = _cave_card(cards, st, edit["cave_card"], f"{field}.cave_card")
            if spaces[index].cave_card != card:
                if not remove_cave_card(st, card):
                    raise AnalysisInputError(f"{field}.cave_card", "that cave card is already on a mat")
                if spaces[index].cave_card is not None:
                    st.cave_deck.insert(0, spaces[index].cave_card)
                spaces[index].cave_card = card
        _excavate_to(st, seat, index, field)
    elif do == "nest":
        pl.nest = whole(edit.get("eggs"), f"{field}.eggs", 0, st.cat.mat_nests)
    elif do == "coins":
        pl.coins = whole(edit.get("coins"), f"{field}.coins", 0, 40)
    elif do == "resources":
        counts = _counts(edit.get("resources"), f"{field}.resources")
        pl.res = [counts.get(r, pl.res[i]) for i, r in enumerate(RESOURCES)]
    elif do == "hand" and (not isinstance(edit.get("dragons"), int) or isinstance(edit.get("dragons"), bool)):
        wanted = edit.get("dragons")
        if not isinstance(wanted, list) or len(wanted) > MAX_COUNT:
            raise AnalysisInputError(f"{field}.dragons", f"expected a list of dragon numbers or names "
                                                         f"(at most {MAX_COUNT})")
        st.dragon_deck.extend(pl.hand)
        pl.hand = []
        for k, ref in enumerate(wanted):
            dragon = _dragon_card(cards, st, ref, f"{field}.dragons[{k}]")
            _not_held(st, dragon, "hand", f"{field}.dragons[{k}]")
            if not remove_dragon_card(st, dragon):
                raise AnalysisInputError(f"{field}.dragons[{k}]", "that card is not in this game")
            pl.hand.append(dragon)
    elif do == "hand":
        count = whole(edit["dragons"], f"{field}.dragons")  # unseen cards: a sample from the deck
        st.dragon_deck.extend(pl.hand)
        pl.hand = []
        for _ in range(count):
            card = st.draw_dragon()
            if card is None:
                raise AnalysisInputError(f"{field}.dragons", "the dragon deck ran out")
            pl.hand.append(card)
    elif do == "guild_tile":
        tiles = [i for i, tile in enumerate(st.cat.guild_tiles) if tile["number"] == edit.get("tile")]
        if not tiles:
            raise AnalysisInputError(f"{field}.tile", "expected a guild tile's number")
        if any(pl_.markers for pl_ in st.players):
            raise AnalysisInputError(f"{field}.tile", "choose the guild tile before placing markers")
        st.guild_tile = tiles[0]
        st.guild_board = [[[] for _ in range(row["squares"])] for row in st.tile_rows()]
        st.guild_board.append([[] for _ in st.cat.guild_end_vp])
    elif do == "cave_cards":
        wanted = edit.get("caves")
        if isinstance(wanted, int) and not isinstance(wanted, bool):
            count = whole(wanted, f"{field}.caves")
            st.cave_deck.extend(pl.caves)
            pl.caves = []
            for _ in range(count):
                pl.caves.append(_take_cave_card(st, f"{field}.caves"))
        elif isinstance(wanted, list) and len(wanted) <= MAX_COUNT:
            # The cards given back go under the deck, so a "deck" entry draws a card that was not in the hand.
            st.cave_deck[:0] = pl.caves
            pl.caves = []
            for k, ref in enumerate(wanted):
                if ref == DECK:
                    continue
                card = _cave_card(cards, st, ref, f"{field}.caves[{k}]")
                _not_held(st, card, "caves", f"{field}.caves[{k}]")
                if not remove_cave_card(st, card):
                    raise AnalysisInputError(f"{field}.caves[{k}]", "that cave card is not in this game")
                pl.caves.append(card)
            for k, ref in enumerate(wanted):
                if ref == DECK:
                    pl.caves.append(_take_cave_card(st, f"{field}.caves[{k}]"))
        else:
            raise AnalysisInputError(f"{field}.caves", "expected a count, or a list of cave card numbers "
                                                       "(\"deck\" for one from the deck)")
    elif do == "display":
        for key, slots, find, remove, back, draw, held in (
                ("dragons", st.display_dragons, _dragon_card, remove_dragon_card, st.dragon_deck, st.draw_dragon,
                 "hand"),
                ("caves", st.display_caves, _cave_card, remove_cave_card, st.cave_deck, st.draw_cave, "caves")):
            if key not in edit:
                continue
            wanted = edit[key]
            if not isinstance(wanted, list) or len(wanted) > 3:
                raise AnalysisInputError(f"{field}.{key}", "expected up to 3 cards (null for an empty slot, "
                                                           "\"deck\" for the deck's top card)")
            returned = [c for c in slots if c is not None]
            slots[:] = [None, None, None]
            for k, ref in enumerate(wanted):
                if ref is None or ref == DECK:
                    continue
                card = find(cards, st, ref, f"{field}.{key}[{k}]")
                _not_held(st, card, held, f"{field}.{key}[{k}]")
                if card in returned:
                    returned.remove(card)
                elif not remove(st, card):
                    raise AnalysisInputError(f"{field}.{key}[{k}]", "that card is not in this game")
                slots[k] = card
            # A card taken out of the display goes under its deck, so a slot filled from the deck takes a new card.
            for k, ref in enumerate(wanted):
                if ref == DECK:
                    slots[k] = draw()
                    if slots[k] is None:
                        raise AnalysisInputError(f"{field}.{key}[{k}]", "the deck is empty")
            back[:0] = returned
    elif do == "round":
        st.round = whole(edit.get("round"), f"{field}.round", 1, st.cat.rounds)
    elif do == "explored":
        cave = cave_index(edit.get("cave"), f"{field}.cave")
        pl.explored[cave] = whole(edit.get("times"), f"{field}.times", 0, len(st.cat.explore_costs))
    elif do == "guild":
        pl.guild = whole(edit.get("advancements"), f"{field}.advancements", 0, 60)
    elif do == "marker":
        rows = st.guild_board
        row = whole(edit.get("row"), f"{field}.row", 1, len(rows)) - 1
        square = whole(edit.get("square", 1), f"{field}.square", 1, len(rows[row])) - 1
        if len(pl.markers) >= st.cat.markers_per_player:
            raise AnalysisInputError(field, f"a player has at most {st.cat.markers_per_player} guild markers")
        end_row = row == len(rows) - 1
        if rows[row][square] and not (end_row and square == len(rows[row]) - 1):
            raise AnalysisInputError(f"{field}.square", "that square already holds a marker")
        rows[row][square].append(seat)
        pl.markers.append([-1 if end_row else row, square])
    elif do == "remove_marker":
        rows = st.guild_board
        row = whole(edit.get("row"), f"{field}.row", 1, len(rows)) - 1
        square = whole(edit.get("square", 1), f"{field}.square", 1, len(rows[row])) - 1
        mark = [-1 if row == len(rows) - 1 else row, square]
        if mark not in [list(m) for m in pl.markers] or seat not in rows[row][square]:
            raise AnalysisInputError(f"{field}.square", f"{_player(seat)} has no marker on that square")
        rows[row][square].remove(seat)
        del pl.markers[[list(m) for m in pl.markers].index(mark)]  # one only: the END GAME row's last square holds many
    elif do == "objective":
        rnd = whole(edit.get("round"), f"{field}.round", 1, st.cat.rounds)
        if edit.get("place", 0) is None:  # the marker taken off: only the last one placed, as the rounds go in order
            if len(pl.objectives) != rnd:
                raise AnalysisInputError(f"{field}.round", f"{_player(seat)}'s last objective marker is "
                                                           f"{'round ' + str(len(pl.objectives)) if pl.objectives else 'not placed'}: "
                                                           f"take markers off from the last round back")
            pl.objectives.pop()
        else:
            place = whole(edit.get("place"), f"{field}.place", 0, 3)
            while len(pl.objectives) < rnd:
                pl.objectives.append(0)
            pl.objectives[rnd - 1] = place
    elif do == "objective_tile":
        rnd = whole(edit.get("round"), f"{field}.round", 1, st.cat.rounds)
        number = edit.get("tile")
        tiles = [i for i, tile in enumerate(st.cat.objective_tiles) if tile["number"] == number]
        if not tiles:
            raise AnalysisInputError(f"{field}.tile", "expected an objective tile's number")
        side = edit.get("side", "a")
        if side not in ("a", "b"):
            raise AnalysisInputError(f"{field}.side", "expected a or b")
        st.objectives[rnd - 1] = [tiles[0], side]
    elif do == "passed":
        passed = edit.get("passed", True)
        if not isinstance(passed, bool):
            raise AnalysisInputError(f"{field}.passed", "expected true or false")
        pl.passed = passed
    elif do == "income":
        if not st.options.get("academy"):
            raise AnalysisInputError(f"{field}.space", "income spaces are a Dragon Academy rule: set academy")
        spaces = st.cat.academy_income.get(st.round, ())
        if not spaces:
            raise AnalysisInputError(f"{field}.space", f"round {st.round} has no income spaces")
        if "space" in edit and edit["space"] is None:  # off the income space again (still passed)
            if pl.income_space is None:
                raise AnalysisInputError(f"{field}.space", f"{_player(seat)} is on no income space")
            st.income_taken.pop(str(pl.income_space), None)
            pl.income_space = None
            return
        space = whole(edit.get("space"), f"{field}.space", 1, len(spaces)) - 1
        if st.income_taken.get(str(space), seat) != seat:
            raise AnalysisInputError(f"{field}.space", "another player took that income space")
        if pl.income_space is not None:
            st.income_taken.pop(str(pl.income_space), None)
        pl.income_space = space
        pl.passed = True
        st.income_taken[str(space)] = seat
    elif do == "turn":
        st.current = seat
