"""Run one ability through the engine in a situation, replaying a list of decisions, and say at each step what
changed, what may happen next (every legal option) and what may not (nearby options the engine refuses, with its
reason). Pure Python: the engine is deterministic given the seed and the decisions, so each request replays all.
"""
from game.engine.catalogue import CAVE_NAMES, RESOURCES
from game.engine.decisions import IllegalDecision, MalformedDecision, Option
from game.engine.model import COLUMNS, NEST
from game.engine.scoring import CATEGORIES, base_breakdown, guild_marker_vp, objective_vp
from game.engine.view import plain
from game.language.options import price

from . import situation as situations
from .errors import CheckerInputError

MAX_DECISIONS = 300
AUTO_LIMIT = 300
MAX_NOT_ALLOWED = 12


def seat_name(seat):
    return "You" if seat == 0 else f"Opponent {seat}"


class Voice:
    """How changes name the seats: the checker speaks to seat 0 as "you" and keeps the opponents' hands hidden;
    the analysis board names every seat by number and shows every hand, since every seat is editable there."""
    __slots__ = ("name", "whose", "hides_hand")

    def __init__(self, name, whose, hides_hand):
        self.name, self.whose, self.hides_hand = name, whose, hides_hand


CHECKER = Voice(seat_name, lambda seat: "your" if seat == 0 else f"opponent {seat}'s", lambda seat: seat != 0)


# -- firing the ability ---------------------------------------------------------------------------------------

def fire(st, subject, ability, s):
    """Fire the ability as the game would trigger it. Returns notes on how it was triggered, and the effect (with
    its dragon) whose yes/no question the engine skips when it cannot act, or None when no such skip applies."""
    notes = []
    me = st.players[0]
    kind = ability["kind"]
    if subject.kind == "guild":
        tile = st.cat.guild_tiles[subject.index]
        row = ability["index"]
        st.fire(0, ("guild", row), 0)
        if kind == "end_game":
            notes.append("Your marker is on this END GAME row: it scores when the game ends, so the checker "
                         "scores it now.")
            return notes, None
        notes.append(f"You place a marker on row {row + 1} of the {tile['name']} and take its benefit.")
        return notes, (ability["effect"], -1)
    k = ability["index"]
    if subject.kind == "cave":
        index = s.at
        where = f"{CAVE_NAMES[index // COLUMNS]} column {index % COLUMNS + 1}"
        if kind != "when_played":
            notes.append("A cave card's abilities fire when it is excavated; the checker runs this one the same way.")
            st.fire(0, ("cave", subject.number), k)
            return notes, (ability["effect"], -1)
        notes.append(f"You excavate {where} with cave card {subject.number} (its cost is already paid).")
        if index % COLUMNS == COLUMNS - 1 and st.cat.column_4_effect:
            notes.append("This is the 4th column: its when-covered benefit comes too, in the order you choose.")
        st.fire(0, index, k)  # the cave card lies on that space: it fires as just excavated
        return notes, (ability["effect"], -1)
    dragon = subject.index
    index = me.find(dragon)
    card = st.cat.dragons[dragon]
    active = st.active(0, dragon, index)
    if not active and kind != "end_game":
        boxes = len(card.training)
        notes.append(f"{card.name} is a fledgling with {me.spaces[index].tokens} of {boxes} training boxes filled: "
                     f"its abilities are inactive until it is fully trained.")
        if kind == "if_activated":
            notes.append("Walking onto it offers one training instead, which is what the engine runs.")
            st.fire(0, index, k)
        return notes, None
    if kind in ("on_feed", "on_grow_up"):
        fed = me.spaces[index].fed
        food = {"card": "a dragon card tucked under it", "milk": "milk cached on it",
                "meat": "meat cached on it"}.get(card.feeds_on, "its food")
        notes.append(f"The checker feeds {card.name} once ({food}); it has been fed {fed} time(s) before.")
        if fed >= 3 or me.spaces[index].grown:
            notes.append("It has already grown up: growing up happens once per game, so only the feeding "
                         "benefit follows.")
        elif fed == 2:
            notes.append("This is its third feeding: it grows up now.")
        else:
            notes.append(f"It grows up on its third feeding ({2 - fed} more after this one).")
        st.fire(0, index, k)
        return notes, None
    if kind == "when_played":
        notes.append(f"{card.name} has just been played (its cost is already paid).")
    elif kind == "if_activated":
        notes.append(f"The adventurer walks onto {card.name} while you explore.")
    elif kind == "once_per_round":
        notes.append("The round ends: once-per-round abilities resolve.")
    elif kind == "end_game":
        notes.append("The game ends: end-game abilities score.")
    st.fire(0, index, k, untrained=not active)  # the checker shows an untrained fledgling's end-game ability too
    return notes, (ability["effect"], dragon)


def finished(st):
    """The ability is over when the only thing left is seat 0's next action, which the situation put below it."""
    return (st.idle() and st.pending.player == 0) or st.pending is None


# -- what changed ---------------------------------------------------------------------------------------------

def _space_name(st, seat, index):
    if index == NEST:
        return "the nests on the mat"
    space = st.players[seat].spaces[index]
    where = f"{CAVE_NAMES[index // COLUMNS]} {index % COLUMNS + 1}"
    if space.dragon is not None:
        return f"{st.cat.dragons[space.dragon].name} ({where})"
    return where


def _vp(st, pl):
    breakdown = base_breakdown(st.cat, pl, objective_vp(st.cat, pl.objectives), guild_marker_vp(st.cat, pl.markers))
    return sum(breakdown[c] for c in CATEGORIES)


def snapshot(st, voice=CHECKER):
    """What a step may change, per seat, plus where every card is (in `voice`'s words) and whose hand holds it."""
    seats = []
    for pl in st.players:
        seat = {"coins": pl.coins, "dragon cards in hand": len(pl.hand), "cave cards in hand": len(pl.caves),
                "eggs in the nests": pl.nest, "guild advancements": pl.guild, "guild markers": len(pl.markers),
                "VP": _vp(st, pl)}
        for i, r in enumerate(RESOURCES):
            seat[r] = pl.res[i]
        spaces = {}
        for i, s in enumerate(pl.spaces):
            if s.dragon is None:
                continue
            spaces[i] = {"eggs": s.eggs, "tucked": len(s.tucked), "training tokens": s.tokens, "fed": s.fed,
                         "grown up": s.grown}
            for k, r in enumerate(RESOURCES):
                spaces[i][f"{r} cached"] = s.cached[k]
        seat["spaces"] = spaces
        seats.append(seat)
    hands = {"dragons": {d: pl.seat for pl in st.players for d in pl.hand},
             "caves": {c: pl.seat for pl in st.players for c in pl.caves}}
    return {"seats": seats, "dragons": _dragon_places(st, voice), "caves": _cave_places(st, voice), "hands": hands}


def _dragon_places(st, voice):
    where = {}
    for d in st.dragon_deck:
        where[d] = "the deck"
    for d in st.dragon_discard:
        where[d] = "the discard pile"
    for d in st.display_dragons:
        if d is not None:
            where[d] = "the display"
    for d in st.revealed:
        where[d] = "revealed"
    for pl in st.players:
        who = voice.whose(pl.seat)
        for d in pl.hand:
            where[d] = f"{who} hand"
        for i, s in enumerate(pl.spaces):
            if s.dragon is not None:
                where[s.dragon] = f"{who} mat ({CAVE_NAMES[i // COLUMNS]} {i % COLUMNS + 1})"
            for d in s.tucked:
                where[d] = f"tucked under {_space_name(st, pl.seat, i)} on {who} mat"
    return where


def _cave_places(st, voice):
    where = {}
    for c in st.cave_deck:
        where[c] = "the deck"
    for c in st.cave_discard:
        where[c] = "the discard pile"
    for c in st.display_caves:
        if c is not None:
            where[c] = "the display"
    for pl in st.players:
        who = voice.whose(pl.seat)
        for c in pl.caves:
            where[c] = f"{who} hand"
        for i, s in enumerate(pl.spaces):
            if s.cave_card is not None:
                where[s.cave_card] = f"{who} mat ({CAVE_NAMES[i // COLUMNS]} {i % COLUMNS + 1})"
    return where


def diff(st, before, after, voice=CHECKER):
    """Plain-words changes between two snapshots, seat by seat, then the cards that moved."""
    changes = []
    for seat, (b, a) in enumerate(zip(before["seats"], after["seats"])):
        for key in b:
            if key != "spaces" and b[key] != a[key]:
                changes.append({"seat": seat, "what": key, "where": None, "before": b[key], "after": a[key],
                                "text": f"{voice.name(seat)}: {key} {b[key]} → {a[key]}"})
        for index in sorted(set(b["spaces"]) | set(a["spaces"])):
            sb, sa = b["spaces"].get(index), a["spaces"].get(index)
            if sb is None or sa is None:
                continue  # a dragon arriving or leaving shows as a card move
            for key in sb:
                if sb[key] != sa[key]:
                    where = _space_name(st, seat, index)
                    changes.append({"seat": seat, "what": key, "where": where, "before": sb[key], "after": sa[key],
                                    "text": f"{voice.name(seat)}: {key} on {where} {_yes(sb[key])} → "
                                            f"{_yes(sa[key])}"})
    for kind, label in (("dragons", lambda c: st.cat.dragons[c].label()), ("caves", lambda c: st.cat.caves[c].label())):
        moved = [(c, before[kind].get(c), a) for c, a in after[kind].items() if before[kind].get(c) != a]
        for card, was, now in sorted(moved, key=lambda m: m[0]):
            if was == "the deck" and now == "the display":
                continue  # the display refilling is not the ability's doing
            holder = after["hands"][kind].get(card)
            name = "a card" if holder is not None and voice.hides_hand(holder) else label(card)
            changes.append({"seat": None, "what": "card", "where": None, "before": was, "after": now,
                            "text": f"{name}: {was or 'nowhere'} → {now}"})
    return changes


def _yes(value):
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return value


# -- what may and may not happen next -------------------------------------------------------------------------

def _candidates(st):
    """Options of the kinds now asked about, over everything the page could offer: the engine refuses the ones
    that are not legal, and its message says why."""
    pending = st.pending
    p = pending.player
    pl = st.players[p]
    kinds = {o.kind for o in pending.options}
    dragons = [i for i, s in enumerate(pl.spaces) if s.dragon is not None]
    out = []
    if "cache" in kinds:
        out += [Option("cache", (r, i)) for i in dragons for r in RESOURCES]
    if "egg_on" in kinds:
        out += [Option("egg_on", (i,)) for i in [NEST] + dragons]
    if "tuck" in kinds:
        cards = sorted({o.args[0] for o in pending.options if o.kind == "tuck"})
        out += [Option("tuck", (c, i)) for c in cards for i in dragons]
    if "train" in kinds:
        out += [Option("train", (i,)) for i in dragons if st.cat.dragons[pl.spaces[i].dragon].size == "fledgling"]
    if "resource" in kinds:
        out += [Option("resource", (r,)) for r in RESOURCES]
    if "take" in kinds:
        out += [Option("take", ("display", i)) for i in range(3)] + [Option("take", ("deck",))]
    if "play" in kinds:
        cards = sorted({o.args[0] for o in pending.options if o.kind == "play"} | set(pl.hand))
        out += [Option("play", (d, c)) for d in cards for c in range(3)]
    if "activate" in kinds:
        out += [Option("activate", (pl.spaces[i].dragon,)) for i in dragons]
    if "pay" in kinds and any(len(o.args) == 1 for o in pending.options if o.kind == "pay"):
        out += [Option("pay", (r,)) for r in RESOURCES]
    if "pay" in kinds and any(o.args[0] == "egg" for o in pending.options if o.kind == "pay"):
        out += [Option("pay", ("egg", i)) for i in [NEST] + dragons]
    legal = set(pending.options)
    seen, unique = set(), []
    for o in out:
        if o not in legal and o not in seen:
            seen.add(o)
            unique.append(o)
    return unique


def _hint(st, option):
    """A closer reason than the engine's general one, for the commonest refusals."""
    p = st.pending.player
    pl = st.players[p]
    cat = st.cat
    kind, args = option.kind, option.args
    if kind == "egg_on":
        if args[0] == NEST:
            return "the mat's nests are full" if pl.nest >= cat.mat_nests else "this ability lays eggs on dragons"
        space = pl.spaces[args[0]]
        card = cat.dragons[space.dragon]
        if space.eggs >= card.capacity:
            return f"{card.name}'s nest is full ({space.eggs} of {card.capacity})"
        return f"this ability does not lay eggs on {card.name}"
    if kind == "cache":
        r, index = args
        if not pl.res[RESOURCES.index(r)] and any(o.kind == "cache" and o.args[0] != r for o in st.pending.options):
            return f"you have no {r} in your supply, or this ability caches something else"
        return f"this ability does not cache {r} on {cat.dragons[pl.spaces[index].dragon].name}"
    if kind == "tuck":
        return f"this ability does not tuck under {cat.dragons[pl.spaces[args[1]].dragon].name}"
    if kind == "train":
        space = pl.spaces[args[0]]
        card = cat.dragons[space.dragon]
        if space.tokens >= len(card.training):
            return f"{card.name} is already fully trained"
        return f"you cannot pay its next training box ({card.training[space.tokens]}), or the ability names " \
               f"other fledglings"
    if kind == "play":
        card = cat.dragons[args[0]]
        if args[1] not in card.habitats:
            lives = " or the ".join(CAVE_NAMES[c] for c in card.habitats)
            return f"{card.name} does not live in the {CAVE_NAMES[args[1]]} (it lives in the {lives})"
        if args[0] not in pl.hand:
            return f"{card.name} is not in your hand"
        return f"the {CAVE_NAMES[args[1]]} has no free excavated space, or you cannot pay {card.name}'s cost"
    if kind == "resource":
        return f"this ability does not offer {args[0]}"
    if kind == "take" and args[0] == "display" and st.display_dragons[args[1]] is None:
        return "that display slot is empty"
    if kind == "activate":
        card = cat.dragons[args[0]]
        return f"{card.name} has no ability of the kind this one uses again, or it was used already"
    return None


def not_allowed(st):
    out = []
    for option in _candidates(st)[:MAX_NOT_ALLOWED]:
        try:
            st.apply(option)
        except IllegalDecision as refusal:  # apply checks first and changes nothing when it refuses
            reason = str(refusal)
        else:  # never: the option was not legal; but a checker must not corrupt what it checks
            raise AssertionError(f"the engine accepted {option} although it was not listed")
        out.append(dict(option_json(st, option, st.pending.player), reason=reason, hint=_hint(st, option)))
    return out


# Where a mat space sits in an option's args, so the page can name the dragon on it beside the engine's label.
SPACE_ARG = {"egg_on": 0, "cache": 1, "tuck": 1, "train": 0, "cover": 1, "swap_hand": 0, "swap_cave": 0}


def dragon_on(st, option, seat):
    """The dragon an option acts on, by name ('Lay on Golden Grotto space 2' -> 'Primordiasaur')."""
    at = SPACE_ARG.get(option.kind)
    if option.kind == "pay" and len(option.args) == 2 and option.args[0] == "egg":
        at = 1
    if at is None or at >= len(option.args) or not isinstance(option.args[at], int):
        return None
    index = option.args[at]
    if not 0 <= index < len(st.players[seat].spaces):
        return None
    dragon = st.players[seat].spaces[index].dragon
    return st.cat.dragons[dragon].name if dragon is not None else None


def option_json(st, option, seat):
    dragon = dragon_on(st, option, seat)
    info = st.option_info(option)
    return dict(option.to_dict(), label=info["label"], dragon=dragon, detail=dragon,
                price=price(info), info=plain(info))


def pending_json(st):
    pending = st.pending
    return {"player": pending.player, "who": seat_name(pending.player), "kind": pending.kind,
            "data": plain(pending.data), "prompt": pending.prompt,
            "options": [option_json(st, o, pending.player) for o in pending.options],
            "not_allowed": not_allowed(st)}


# -- the whole run --------------------------------------------------------------------------------------------

def run(cards, subject, ability_index, situation, decisions=(), auto=False):
    """Build the situation, fire the ability, replay `decisions`; with `auto`, keep taking the first option
    until the ability is over. Returns plain JSON-able data."""
    return play(cards, subject, ability_index, situation, decisions, auto)[1]


def play(cards, subject, ability_index, situation, decisions=(), auto=False):
    """`run`, also returning the game state it ends in (for tests that check the engine's invariants)."""
    abilities = cards.abilities(subject)
    if isinstance(ability_index, bool) or not isinstance(ability_index, int):
        raise CheckerInputError("ability", "expected the ability's number (0 for the first)")
    if not 0 <= ability_index < len(abilities):
        count = len(abilities)
        raise CheckerInputError("ability", f"{subject.name} has {count} abilit{'y' if count == 1 else 'ies'} "
                                           f"(0 to {count - 1})" if count else f"{subject.name} has no ability")
    if not isinstance(decisions, (list, tuple)):
        raise CheckerInputError("decisions", 'expected a list such as [{"kind": "yes", "args": []}]')
    if len(decisions) > MAX_DECISIONS:
        raise CheckerInputError("decisions", f"at most {MAX_DECISIONS} decisions")
    s = situations.read(cards, subject, situation)
    ability = abilities[ability_index]
    st = situations.build(cards.cat, s, ability["index"] if subject.kind == "guild" else None)
    before = snapshot(situations.before_placing(st, s))
    could = st.can_act(0, ability["effect"], subject.index if subject.kind == "dragon" else -1)
    notes, probe = fire(st, subject, ability, s)
    if probe is not None and not could:
        notes.append("In this situation the ability cannot do anything, so the engine skips it without asking.")
    after = snapshot(st)
    steps = [{"number": 0, "seat": None, "who": None, "kind": None, "data": None, "prompt": None, "decision": None,
              "label": "The ability is triggered", "changes": diff(st, before, after)}]
    taken = []
    for i, raw in enumerate(decisions):
        try:
            option = Option.from_dict(raw)
        except MalformedDecision as error:
            raise CheckerInputError(f"decisions[{i}]", str(error)) from None
        if finished(st):
            raise CheckerInputError(f"decisions[{i}]", "the ability is already over: no decision is expected")
        steps.append(_step(st, option, len(steps), f"decisions[{i}]"))
        taken.append(option.to_dict())
    if auto:
        while not finished(st) and len(taken) < AUTO_LIMIT:
            option = st.legal_options()[0]
            steps.append(_step(st, option, len(steps), "auto"))
            taken.append(option.to_dict())
    done = finished(st)
    return st, {
        "notes": notes,
        "steps": steps,
        "finished": done,
        "pending": None if done else pending_json(st),
        "decisions": taken,
        "situation": describe(st),
    }


def _step(st, option, number, field):
    before = snapshot(st)
    pending = st.pending
    label = st.label(option)
    detail = dragon_on(st, option, pending.player)
    if detail:
        label += f" ({detail})"
    try:
        st.apply(option)
    except IllegalDecision as error:
        raise CheckerInputError(field, str(error)) from None
    return {"number": number, "seat": pending.player, "who": seat_name(pending.player), "kind": pending.kind,
            "data": plain(pending.data), "prompt": pending.prompt, "decision": option.to_dict(), "label": label,
            "changes": diff(st, before, snapshot(st))}


def describe(st):
    """Seat 0's mat and supply as it stands at the end, for the page."""
    pl = st.players[0]
    mat = []
    for i, s in enumerate(pl.spaces):
        if s.dragon is None and s.cave_card is None and i % COLUMNS:
            continue
        mat.append({"index": i, "cave": CAVE_NAMES[i // COLUMNS], "column": i % COLUMNS + 1,
                    "dragon": st.cat.dragons[s.dragon].label() if s.dragon is not None else None,
                    "excavated": pl.excavated(i), "eggs": s.eggs,
                    "cached": {r: n for r, n in zip(RESOURCES, s.cached) if n}, "tucked": len(s.tucked),
                    "training_tokens": s.tokens, "fed": s.fed})
    return {"players": len(st.players), "coins": pl.coins, "resources": dict(zip(RESOURCES, pl.res)),
            "hand": [st.cat.dragons[d].label() for d in pl.hand], "cave_cards": len(pl.caves),
            "nest_eggs": pl.nest, "guild_advancements": pl.guild, "vp": _vp(st, pl), "mat": mat,
            "deck_top": st.cat.dragons[st.dragon_deck[-1]].label() if st.dragon_deck else None}
