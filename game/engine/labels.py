"""Plain words for options, and the reason a tried option is not allowed (for IllegalDecision messages)."""
from .catalogue import CAVE_NAMES
from .model import COLUMNS, NEST


def _dragon(st, index):
    try:
        return st.cat.dragons[index].label()
    except (IndexError, TypeError):
        return f"dragon #{index}"


def _cave_card(st, index):
    try:
        return st.cat.caves[index].label()
    except (IndexError, TypeError):
        return f"cave card #{index}"


def _cave(index):
    return CAVE_NAMES[index] if isinstance(index, int) and 0 <= index < 3 else f"cave #{index}"


def _space(index):
    if index == NEST:
        return "a nest on your mat"
    if not isinstance(index, int) or not 0 <= index < 12:
        return f"space #{index}"
    cave, col = divmod(index, COLUMNS)
    return f"{CAVE_NAMES[cave]} space {col + 1}"


def _card(st, kind, index):
    return _dragon(st, index) if kind == "dragon" else _cave_card(st, index)


def label(st, option):
    kind, args = option.kind, option.args
    try:
        if kind == "pass":
            return "Pass" + (f" (take income space {args[0] + 1})" if args else "")
        if kind == "excavate":
            card = "the top cave card of the deck" if args[0] == -1 else _cave_card(st, args[0])
            return f"Excavate the {_cave(args[1])} with {card}"
        if kind == "entice":
            return f"Entice {_dragon(st, args[0])} into the {_cave(args[1])}"
        if kind == "explore":
            return f"Explore the {_cave(args[0])}"
        if kind == "exchange":
            return f"Exchange 1 {args[0]} and 1 {args[1]} for 1 {args[2]}"
        if kind in ("yes", "no", "stop"):
            return {"yes": "Yes", "no": "No", "stop": "Stop here"}[kind]
        if kind == "discard_cards":
            return "Discard " + " and ".join(_card(st, args[i], args[i + 1]) for i in range(0, len(args), 2))
        if kind == "resources":
            return "Take " + ", ".join(args)
        if kind == "discard":
            return "Discard " + (_card(st, args[0], args[1]) if len(args) == 2 else f"1 {args[0]}")
        if kind == "resource":
            return f"Gain {args[0]}"
        if kind == "take":
            return "Draw from the deck" if args[0] == "deck" else f"Take display card {args[1] + 1}"
        if kind == "egg_on":
            return f"Lay on {_space(args[0])}"
        if kind == "pay":
            if args[0] == "egg":
                return f"Pay an egg from {_space(args[1])}"
            if len(args) == 2:
                return f"Pay {_card(st, args[0], args[1])}"
            return f"Pay 1 {args[0]}"
        if kind == "cache":
            return f"Cache 1 {args[0]} on {_space(args[1])}"
        if kind == "tuck":
            card = "the top card of the deck" if args[0] == -1 else _dragon(st, args[0])
            return f"Tuck {card} under {_space(args[1])}"
        if kind == "marker":
            row = "the END GAME row" if args[0] == -1 else f"row {args[0] + 1}"
            return f"Place your marker on {row}, square {args[1] + 1}"
        if kind == "first":
            return "The cave card's benefit first" if args[0] == "cave_card" else "The 4th column's benefit first"
        if kind == "choose":
            return f"Option {args[0] + 1}"
        if kind == "next_ability":
            return f"Resolve {_dragon(st, args[0])} next"
        if kind == "play":
            extra = f" (without 1 {args[2]})" if len(args) > 2 else ""
            return f"Play {_dragon(st, args[0])} into the {_cave(args[1])}{extra}"
        if kind == "cover":
            return f"Play {_dragon(st, args[0])} on top of the dragon on {_space(args[1])}"
        if kind == "swap":
            return f"Swap the dragons on {_space(args[0])} and {_space(args[1])}"
        if kind == "swap_hand":
            return f"Swap the dragon on {_space(args[0])} for {_dragon(st, args[1])}"
        if kind == "swap_cave":
            return f"Swap the cave card on {_space(args[0])} for {_cave_card(st, args[1])}"
        if kind == "train":
            return f"Train the fledgling on {_space(args[0])}"
        if kind == "activate":
            return f"Use {_dragon(st, args[0])}'s ability"
        if kind == "activate_icon":
            return f"Use the {_cave(args[0])} path icon {args[1] + 1}"
        if kind == "activate_card":
            return f"Use {_card(st, args[0], args[1])}'s ability"
        if kind == "pick" and isinstance(args[0], str):
            place, card = args[0], _card(st, args[1], args[2])
            if place == "tuck":
                return f"Tuck {card} under {_space(args[3])}"
            if place == "play":
                return f"Play {card} into the {_cave(args[3])}"
            if place == "excavate":
                return f"Excavate the {_cave(args[3])} with {card}"
            return f"{place.capitalize()} {card}"
    except (IndexError, TypeError, ValueError, AttributeError, KeyError):  # a label never fails: bad args read raw
        pass
    return f"{kind} {' '.join(str(a) for a in args)}".strip()


def explain_illegal(st, option):
    """Say what was tried and which rule forbids it."""
    tried = label(st, option)
    pending = st.pending
    who = f"player {pending.player + 1}"
    kinds = {o.kind for o in pending.options}
    main = pending.prompt == "Choose your action" and option.kind in ("excavate", "entice", "explore", "exchange",
                                                                       "pass")
    if option.kind not in kinds and not main:
        return (f"You tried '{tried}', but now the game asks {who}: {pending.prompt}. "
                f"That is not one of the choices here.")
    p = pending.player
    pl = st.players[p]
    reason = "it is not one of the legal choices right now"
    args = option.args
    try:
        if option.kind == "excavate" and pending.prompt == "Choose your action":
            card, cave = args
            if pl.coins < st.cat.excavate_coins:
                reason = f"excavating costs {st.cat.excavate_coins} coin and you have {pl.coins}"
            elif card not in pl.caves:
                reason = "that cave card is not in your hand"
            elif st.next_unexcavated(p, cave) is None:
                reason = f"every space of your {_cave(cave)} is already excavated"
            else:
                need = st.cat.excavate_eggs[st.next_unexcavated(p, cave) % COLUMNS]
                reason = f"that column costs {need} egg(s) and you have {pl.eggs()}"
        elif option.kind == "entice" and pending.prompt == "Choose your action":
            dragon, cave = args
            card = st.cat.dragons[dragon]
            index = st.next_empty(p, cave)
            if dragon not in pl.hand:
                reason = "that dragon is not in your hand"
            elif cave not in card.habitats:
                lives = " or ".join(_cave(c) for c in card.habitats)
                reason = f"it does not live in the {_cave(cave)} (it lives in the {lives})"
            elif index is None or not pl.excavated(index):
                reason = f"your {_cave(cave)} has no excavated empty space for it"
            else:
                reason = "you cannot pay its cost (1 coin for enticing plus its printed cost)"
        elif option.kind == "explore":
            cave = args[0]
            if pl.explored[cave] >= len(st.cat.explore_costs):
                reason = f"you have explored the {_cave(cave)} the most times allowed this round"
            else:
                coins, eggs = st.cat.explore_costs[pl.explored[cave]]
                reason = f"this visit costs {coins} coin(s) and {eggs} egg(s)"
        elif option.kind == "exchange":
            reason = "an exchange gives 2 resources you have for 1 of another kind"
        elif option.kind == "pass" and args:
            taken = st.income_taken.get(str(args[0]))
            reason = (f"player {taken + 1} already took that income space this round" if taken is not None
                      else "that income space is not on the round tracker for this round")
        elif option.kind == "pass":
            reason = "in rounds 1 to 3 of Dragon Academy, passing puts your adventurer on a free income space"
        elif option.kind == "egg_on":
            reason = "an egg can only be laid in an empty nest the ability allows (on a dragon or the mat)"
        elif option.kind == "cache":
            reason = "that resource cannot be cached there (you may lack it, or the ability names other dragons)"
        elif option.kind == "tuck":
            reason = "that card cannot be tucked there (it is not yours to tuck, or the ability names other dragons)"
        elif option.kind == "pay":
            reason = "you do not have that to pay, or this payment asks for something else"
        elif option.kind == "take":
            reason = "that display slot is empty, or this ability takes cards from elsewhere"
        elif option.kind == "marker":
            reason = "that square is taken (each holds one marker, except the last END GAME square)"
        elif option.kind == "discard" and pending.prompt.startswith("Discard"):
            reason = "you do not hold that to discard"
    except (IndexError, TypeError, ValueError, AttributeError, KeyError):
        reason = "it does not name things that exist in this game"
    return f"You tried '{tried}', but {reason}."
