"""What happened in a game, in words: every kind of event the engine records, declared once.

An event is plain data, `{"e": kind, "p": seat, ...}`, with cards as catalogue indices (`["dragon", 12]`), spaces as
`cave * 4 + column` (-1: the mat's nests) and items by name. A declaration names the event's kind, the keys only its
own player may see (`secret`: the engine's `view.events_for` drops them for everyone else) and its sentence.

The sentence builders write plain English in which items are marked with their icon (as the ability renderer
does), so `render_event` (plain text) and `render_event_html` (icons, escaped names) come from one pass. Card and
player names come from a resolver passed in (`Names`): this layer imports nothing of the engine or the catalogue.
"""
from .render import _html, _icon, _items, _join, _plain, describe
from .vocabulary import CAVE_NAMES, KIND_ADJECTIVES, RESOURCES

COLUMNS = 4
NEST = -1
# The order a cost is read in: the action's coins first, then the card's resources, then eggs.
COST_ORDER = ("coin",) + RESOURCES + ("any_resource", "egg", "dragon", "cave", "card")


class Names:
    """How the sentences name players and cards. Pass the players' names, and functions from a card index to its
    name (`dragon`), from a cave card index to its name (`cave`); the defaults name cards by index."""

    def __init__(self, players=(), dragon=None, cave=None):
        self.players = list(players)
        self._dragon = dragon or (lambda i: f"dragon card #{i}")
        self._cave = cave or (lambda i: f"cave card #{i}")

    def player(self, seat):
        if seat is not None and 0 <= seat < len(self.players) and self.players[seat]:
            return _clean(str(self.players[seat]))
        return f"Player {seat + 1}" if isinstance(seat, int) else "Someone"

    def dragon(self, index):
        return _clean(str(self._dragon(index)))

    def cave(self, index):
        return _clean(str(self._cave(index)))

    def card(self, ref):
        kind, index = ref[0], ref[-1]
        return self.dragon(index) if kind == "dragon" else self.cave(index)


def _clean(text):
    """Names never carry the renderer's icon markers."""
    return "".join(ch for ch in text if ch >= " ")


class Event:
    """One kind of event: `secret` keys are seen only by the event's player; `text(event, names)` is its sentence
    (marked text, without the final full stop)."""

    __slots__ = ("kind", "secret", "text", "summary")

    def __init__(self, kind, text, secret=(), summary=""):
        self.kind = kind
        self.text = text
        self.secret = tuple(secret)
        self.summary = summary

    def __repr__(self):
        return f"Event({self.kind!r})"


# -------------------------------------------------------------------------------------------------- phrases

def _space(space):
    if space == NEST:
        return "the mat's nests"
    cave, column = divmod(space, COLUMNS)
    return f"the {CAVE_NAMES[cave]}, column {column + 1}"


def _on(ev, names, prep="on"):
    """'on Wise Anteldragon (the Golden Grotto, column 2)' or 'on the mat's nests'."""
    space = ev.get("space", NEST)
    dragon = ev.get("dragon")
    if space == NEST or dragon is None:
        return f"{prep} {_space(space)}"
    return f"{prep} {names.dragon(dragon)} ({_space(space)})"


def _cost(cost):
    parts = [_items(item, cost[item]) for item in COST_ORDER if cost.get(item)]
    parts += [_items(item, n) for item, n in cost.items() if n and item not in COST_ORDER]
    return _join(parts) if parts else ""


def _paying(cost):
    text = _cost(cost or {})
    return f", paying {text}" if text else " for free"


def _cards(refs, names):
    return _join([names.card(ref) for ref in refs]) if refs else "no cards"


def _count_cards(n, kind="card"):
    noun = {"dragon": "dragon", "cave": "cave"}.get(kind, "card")
    return _items(noun, n)


def _ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _whose(ev, names):
    """The card an ability or share belongs to."""
    if "dragon" in ev:
        return names.dragon(ev["dragon"])
    if "cave_card" in ev:
        return names.cave(ev["cave_card"])
    if "guild_row" in ev:
        return f"row {ev['guild_row'] + 1} of the Dragon Guild tile"
    if ev.get("column_4"):
        return "the 4th column's benefit"
    return "a benefit"


def _ability_of(ev, names):
    adjective = KIND_ADJECTIVES.get(ev.get("kind"), "")
    if "dragon" in ev:
        return f"{names.dragon(ev['dragon'])}'s {adjective + ' ' if adjective else ''}ability"
    if "cave_card" in ev:
        return f"the ability of {names.cave(ev['cave_card'])}"
    return _whose(ev, names)


# -------------------------------------------------------------------------------------------------- sentences

def _p(ev, names):
    return names.player(ev.get("p"))


def _dealt(ev, names):
    if "cards" in ev:
        return f"{_p(ev, names)} was dealt {_cards(ev['cards'], names)}"
    return f"{_p(ev, names)} was dealt {_count_cards(ev['n'])}"


def _started(ev, names):
    if ev["players"] == 1:  # a solo game is always against the Automa
        return f"The game began: {names.player(ev['first'])} against the Automa"
    return f"The game began with {ev['players']} players; {names.player(ev['first'])} was to go first"


def _kept(ev, names):
    gone = f" and discarded {_cards(ev['discarded'], names)}" if ev["discarded"] else ""
    if "kept" in ev:
        return f"{_p(ev, names)} kept {_cards(ev['kept'], names)}{gone}"
    return f"{_p(ev, names)} kept {_count_cards(ev['n'])}{gone}"


def _chose_resources(ev, names):
    counts = {}
    for item in ev["items"]:
        counts[item] = counts.get(item, 0) + 1
    return f"{_p(ev, names)} took {_cost(counts)} as starting resources"


def _reshuffled(ev, names):
    return f"The {ev['kind']} discard pile was shuffled into a new deck of {_count_cards(ev['n'], ev['kind'])}"


def _refilled(ev, names):
    cards = [names.card([kind, card]) for kind, _, card in ev["slots"]]
    return f"The display was refilled with {_join(cards)}"


def _refreshed(ev, names):
    if not ev["cards"]:
        return "The display was refreshed"
    return f"The display was cleared: {_cards(ev['cards'], names)} went to the discard piles"


def _turn(ev, names):
    return f"{_p(ev, names)}'s turn (round {ev['round']})"


def _passed(ev, names):
    if "income_space" in ev:
        return f"{_p(ev, names)} passed, taking income space {ev['income_space'] + 1}"
    return f"{_p(ev, names)} passed"


def _exchanged(ev, names):
    counts = {}
    for item in ev["gave"]:
        counts[item] = counts.get(item, 0) + 1
    return f"{_p(ev, names)} exchanged {_cost(counts)} for {_items(ev['got'], ev['n'])}"


def _enticed(ev, names):
    return f"{_p(ev, names)} enticed {names.dragon(ev['dragon'])} into {_space(ev['space'])}{_paying(ev['cost'])}"


FROM = {"hand": "from their hand", "display": "from the display", "revealed": "(the revealed card)",
        "deck": "from the top of the deck"}


def _played(ev, names):
    return (f"{_p(ev, names)} played {names.dragon(ev['dragon'])} {FROM.get(ev.get('source'), '')} into "
            f"{_space(ev['space'])}{_paying(ev['cost'])}").replace("  ", " ")


def _excavated(ev, names):
    source = "" if ev.get("action") or ev.get("source", "hand") == "hand" else f" {FROM[ev['source']]}"
    return (f"{_p(ev, names)} excavated {_space(ev['space'])} with {names.cave(ev['card'])}{source}"
            f"{_paying(ev['cost'])}")


def _explored(ev, names):
    return f"{_p(ev, names)} explored the {CAVE_NAMES[ev['cave']]}{_paying(ev['cost'])}"


def _paid(ev, names):
    if "card" in ev:
        return f"{_p(ev, names)} paid {names.card(ev['card'])} (discarded)"
    where = f" from {_on(ev, names, '')[1:]}" if ev["item"] == "egg" and "space" in ev else ""
    if ev.get("part"):  # part of a cost the previous sentence named: say only where it came from
        return f"{_p(ev, names)} took {_items(ev['item'], ev['n'])} of that cost{where or ' from their supply'}"
    return f"{_p(ev, names)} paid {_items(ev['item'], ev['n'])}{where}"


def _gained(ev, names):
    return f"{_p(ev, names)} gained {_items(ev['item'], ev['n'])}"


def _took(ev, names):
    card = names.card(ev["card"])
    if ev.get("source") == "display":
        return f"{_p(ev, names)} took {card} from the display"
    return f"{_p(ev, names)} took {card} into their hand"


def _drew(ev, names):
    if "cards" in ev:
        return f"{_p(ev, names)} drew {_cards(ev['cards'], names)} from the deck"
    return f"{_p(ev, names)} drew {_count_cards(ev['n'], ev['kind'])} from the deck"


def _laid(ev, names):
    return f"{_p(ev, names)} laid {_items('egg', ev['n'])} {_on(ev, names)}"


def _cached(ev, names):
    return f"{_p(ev, names)} cached {_items(ev['item'], 1)} {_on(ev, names)}"


def _tucked(ev, names):
    what = names.card(ev["card"]) if "card" in ev else "a card"
    source = " from the top of the deck" if ev.get("source") == "deck" else ""
    return f"{_p(ev, names)} tucked {what}{source} {_on(ev, names, 'under')}"


def _grew_up(ev, names):
    return f"{_p(ev, names)}'s {names.dragon(ev['dragon'])} grew up"


def _trained(ev, names):
    if ev["tokens"] >= ev["of"]:
        return f"{_p(ev, names)} trained {names.dragon(ev['dragon'])}: it is fully trained"
    return f"{_p(ev, names)} trained {names.dragon(ev['dragon'])} ({ev['tokens']} of {ev['of']} boxes)"


def _guild(ev, names):
    if ev.get("spent"):
        return (f"{_p(ev, names)} advanced on the Dragon Guild track to a space that places a guild marker, but has "
                f"no marker left to place: all of them are on the tile already")
    where = " to a space that places a guild marker" if ev.get("marker") else ""
    return f"{_p(ev, names)} advanced on the Dragon Guild track{where}"


def _marker(ev, names):
    row = "the END GAME VP row" if ev["row"] < 0 else f"row {ev['row'] + 1}"
    return f"{_p(ev, names)} placed a guild marker on {row} of the Dragon Guild tile, square {ev['square'] + 1}"


def _ability(ev, names):
    if ev["used"]:
        return f"{_p(ev, names)} used {_ability_of(ev, names)}"
    return f"{_p(ev, names)} declined {_ability_of(ev, names)}"


def _share(ev, names):
    verb = "took" if ev["used"] else "declined"
    owner = names.player(ev["owner"])
    whose = f"{owner}'s {_whose(ev, names)}" if any(k in ev for k in ("dragon", "cave_card", "guild_row")) \
        else f"an ability of {owner}"
    return f"{_p(ev, names)} {verb} the share offered by {whose}"


def _activated(ev, names):
    if "icon" in ev:
        cave, slot = ev["icon"]
        return f"{_p(ev, names)} used the {CAVE_NAMES[cave]} path icon {slot + 1} again"
    if "card" in ev:
        return f"{_p(ev, names)} used the ability of {names.card(ev['card'])} again"
    return f"{_p(ev, names)} used {names.dragon(ev['dragon'])}'s ability again"


def _covered(ev, names):
    return (f"{_p(ev, names)} played {names.dragon(ev['dragon'])} on top of {names.dragon(ev['old'])} "
            f"({_space(ev['space'])}), which is tucked under it")


def _swapped(ev, names):
    a, b = ev["spaces"]
    first, second = ev["dragons"]
    return (f"{_p(ev, names)} swapped {names.dragon(first)} ({_space(a)}) and {names.dragon(second)} "
            f"({_space(b)})")


def _swapped_hand(ev, names):
    return (f"{_p(ev, names)} put {names.dragon(ev['dragon'])} from their hand in place of "
            f"{names.dragon(ev['old'])} ({_space(ev['space'])}), which went to their hand")


def _swapped_cave(ev, names):
    return (f"{_p(ev, names)} swapped {names.cave(ev['old'])} at {_space(ev['space'])} for "
            f"{names.cave(ev['card'])} from their hand")


def _revealed(ev, names):
    return f"{_p(ev, names)} revealed {names.card(ev['card'])} from the top of the deck"


def _discarded(ev, names):
    if "p" in ev:
        return f"{_p(ev, names)} discarded {_cards(ev['cards'], names)}"
    return f"{_cards(ev['cards'], names)} went to the discard pile"


def _limit_discard(ev, names):
    if "card" in ev:
        return f"{_p(ev, names)} discarded {names.card(ev['card'])} down to the hand limit"
    return f"{_p(ev, names)} discarded {_items(ev['item'], 1)} down to the resource limit"


def _coins_capped(ev, names):
    return f"{_p(ev, names)} lost {_items('coin', ev['lost'])} above the limit"


def _round_ended(ev, names):
    return f"Round {ev['round']} ended"


def _objective(ev, names):
    parts = []
    for seat, (count, place, vp) in enumerate(zip(ev["counts"], ev["places"], ev["vp"])):
        placed = f"{_ordinal(place)}, {vp} " + _icon("vp", "VP") if place else "no place"
        parts.append(f"{names.player(seat)} {count} ({placed})")
    return f"The round {ev['round']} objective was scored: {_join(parts)}"


def _income(ev, names):
    if "space" in ev:
        return f"{_p(ev, names)} took the income of space {ev['space'] + 1}"
    return f"{_p(ev, names)} took their income"


def _round_started(ev, names):
    return f"Round {ev['round']} began; {names.player(ev['first'])} went first"


def _scored(ev, names):
    whose = f" with {names.dragon(ev['dragon'])}'s end-game ability" if "dragon" in ev else ""
    return f"{_p(ev, names)} scored {ev['vp']} " + _icon("vp", "VP") + whose


def _game_ended(ev, names):
    order = sorted(range(len(ev["places"])), key=lambda s: (ev["places"][s], s))
    parts = [f"{names.player(s)} {ev['scores'][s]['total']} " + _icon("vp", "VP") + f" ({_ordinal(ev['places'][s])})"
             for s in order]
    text = f"The game ended: {_join(parts)}"
    for tie in ev.get("ties", ()):
        who = _join([names.player(s) for s in tie["seats"]])
        if tie["broken"]:
            counts = ", ".join(f"{names.player(s)} {ev['dragons'][s]}" for s in tie["seats"])
            text += f". {who} tied on {tie['vp']} VP; the most dragons on the mat broke the tie ({counts})"
        else:
            text += f". {who} tied on {tie['vp']} VP and on dragons on the mat, and share the place"
    return text


def _chose(ev, names):
    return f"{_p(ev, names)} chose: {describe(ev['effect'])}"


def _declined(ev, names):
    return f"{_p(ev, names)} declined: {describe(ev['effect'])}"


def _repeated(ev, names):
    if ev["again"]:
        return f"{_p(ev, names)} chose to do it again: {describe(ev['effect'])}"
    return f"{_p(ev, names)} stopped repeating: {describe(ev['effect'])}"


def _ordered(ev, names):
    if "dragon" in ev:
        return f"{_p(ev, names)} chose to resolve {names.dragon(ev['dragon'])}'s ability next"
    card, column = names.cave(ev["cave_card"]), "the 4th column's benefit"
    first, then = (card, column) if ev["first"] == "cave_card" else (column, card)
    return f"{_p(ev, names)} resolved {first} before {then}"


def _automa_turn(ev, names):
    done = []
    if ev.get("refresh"):
        done.append("refreshes the display")
    if ev.get("coins"):
        n = ev["coins"]
        done.append(f"{'adds' if n > 0 else 'removes'} {abs(n)} " + _icon("coin", "coin" if abs(n) == 1 else "coins")
                    + " on this round's objective")
    if ev.get("steps"):
        done.append(f"advances {ev['steps']} {'step' if ev['steps'] == 1 else 'steps'} on the Dragon Guild track")
    for got in ev.get("brown") or ():
        if got.get("dragon") is not None:
            done.append(f"takes {names.dragon(got['dragon'])} from the display")
        if got.get("cave") is not None:
            done.append(f"takes {names.cave(got['cave'])} from the display")
        if got.get("marker") is not None:
            done.append("places a marker on the guild tile")
    what = _join(done) if done else "does nothing more"
    return f"{_p(ev, names)} turns decision card {ev['card']} and {what}"


def _automa_pass(ev, names):
    why = f"decision card {ev['card']}" if ev.get("card") is not None else "her deck is empty"
    text = f"{_p(ev, names)} passes ({why})"
    if ev.get("income_space") is not None:
        text += f", taking income space {ev['income_space'] + 1}"
    return text


def _automa_objective(ev, names):
    placed = f"{_ordinal(ev['place'])} place" if ev.get("place") else "no place"
    return f"{_p(ev, names)} counts {ev['count']} on the round {ev['round']} objective ({placed})"


def _automa_cache(ev, names):
    return (f"{_p(ev, names)} takes {ev['tokens']} cache {'token' if ev['tokens'] == 1 else 'tokens'} "
            f"(now {ev['total']})")


DECLARATIONS = (
    Event("started", _started, summary="the table is set: players, first player, guild tile, objectives"),
    Event("dealt", _dealt, secret=("cards",), summary="a player's starting cards (which: only to them)"),
    Event("kept", _kept, secret=("kept",), summary="setup: the cards kept (only to them) and those discarded"),
    Event("chose_resources", _chose_resources, summary="setup: the starting resources"),
    Event("reshuffled", _reshuffled, summary="a discard pile became the new deck"),
    Event("refilled", _refilled, summary="empty display slots filled from the decks"),
    Event("refreshed", _refreshed, summary="round end: the display cleared"),
    Event("turn", _turn, summary="a player's turn begins (its main action follows)"),
    Event("passed", _passed, summary="the pass action (Academy: with its income space)"),
    Event("exchanged", _exchanged, summary="resources exchanged at the board's rate"),
    Event("enticed", _enticed, summary="the entice action: which dragon, which space, the whole cost"),
    Event("played", _played, summary="a dragon played by an ability, from where, with its cost"),
    Event("excavated", _excavated, summary="a space excavated (the main action when `action`), with its cost"),
    Event("explored", _explored, summary="the explore action: which cave, its cost"),
    Event("paid", _paid, summary="one part of a cost paid (an egg: from where; a card: discarded face up)"),
    Event("gained", _gained, summary="resources or coins gained"),
    Event("took", _took, summary="a card taken from the display or the revealed card into hand"),
    Event("drew", _drew, secret=("cards",), summary="cards drawn from a deck (which: only to the drawer)"),
    Event("laid", _laid, summary="an egg laid on a dragon or the mat's nests"),
    Event("cached", _cached, summary="a resource cached on a dragon"),
    Event("tucked", _tucked, secret=("card",), summary="a card tucked face down under a dragon (which: only to them)"),
    Event("grew_up", _grew_up, summary="a hatchling fed for the third time"),
    Event("trained", _trained, summary="a fledgling's training box covered"),
    Event("guild", _guild, summary="one step on the Dragon Guild track"),
    Event("marker", _marker, summary="a guild marker placed on the tile"),
    Event("ability", _ability, summary="a card's ability used or declined, and whose"),
    Event("chose", _chose, summary="which effect of a choice (\"choose one\") a player took, or an optional one they said yes to"),
    Event("declined", _declined, summary="an optional effect (\"you may\") a player said no to"),
    Event("repeated", _repeated, summary="an \"up to\" repeat: done again (`again`) or stopped there"),
    Event("ordered", _ordered, summary="the order a player chose: which once-per-round ability next, or a cave "
                                       "card's benefit before or after the 4th column's"),
    Event("share", _share, summary="an opponent's share of an ability taken or declined"),
    Event("activated", _activated, summary="an ability or mat icon used again"),
    Event("covered", _covered, summary="a dragon played on top of another"),
    Event("swapped", _swapped, summary="two dragons on the mat swapped"),
    Event("swapped_hand", _swapped_hand, summary="a dragon on the mat swapped with one from hand"),
    Event("swapped_cave", _swapped_cave, summary="an uncovered cave card swapped with one from hand"),
    Event("revealed", _revealed, summary="the top dragon card revealed"),
    Event("discarded", _discarded, summary="cards discarded face up"),
    Event("limit_discard", _limit_discard, summary="a card or resource discarded down to the limits"),
    Event("coins_capped", _coins_capped, summary="coins above the limit lost at the end of a turn"),
    Event("round_ended", _round_ended, summary="a round ends (once-per-round abilities follow)"),
    Event("objective", _objective, summary="the round's objective: each player's count, place and VP"),
    Event("round_started", _round_started, summary="a new round and its first player"),
    Event("income", _income, summary="a player's income (what it gives follows)"),
    Event("scored", _scored, summary="VP scored by an end-game ability"),
    Event("automa_turn", _automa_turn, summary="the Automa's turn: her decision card and what it did"),
    Event("automa_pass", _automa_pass, summary="the Automa passes (Academy: the income space she closes)"),
    Event("automa_objective", _automa_objective, summary="the Automa's count and place on the round's objective"),
    Event("automa_cache", _automa_cache, summary="the Automa takes cache tokens for an opponents' share"),
    Event("game_ended", _game_ended, summary="the final breakdown per player, places, winners and ties"),
)
EVENTS = {event.kind: event for event in DECLARATIONS}
SECRET = {event.kind: event.secret for event in DECLARATIONS if event.secret}


def declared(kind):
    """The declaration of an event kind; KeyError naming it when there is none."""
    try:
        return EVENTS[kind]
    except KeyError:
        raise KeyError(f"no event kind {kind!r} is declared") from None


def _marked(event, names):
    # Not capitalised: a sentence starts with a player's name as they wrote it, or with a capital already.
    text = declared(event["e"]).text(event, names)
    return text if text.endswith((".", "!", "?")) else text + "."


def render_event(event, names=None):
    """One sentence in plain text, e.g. 'Ana enticed Wise Anteldragon into the Golden Grotto, column 2, paying
    1 coin, 1 meat and 1 egg.'"""
    return _plain(_marked(event, names or Names()))


def render_event_html(event, names=None):
    """The same sentence as HTML: names escaped, items with their icons."""
    return _html(_marked(event, names or Names()))
